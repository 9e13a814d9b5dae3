package convcert.oracle;

/**
 * What an oracle expects: exact bits, or any NaN of the destination (sign: null when the format's
 * NaN is unsigned, else the sign the NaN must carry).
 */
public record Expected(long bits, boolean anyNaN, Boolean nanSign) {

    public static Expected bits(long bits) {
        return new Expected(bits, false, null);
    }

    public static Expected nan(Boolean sign) {
        return new Expected(0, true, sign);
    }

    public boolean matches(String format, long actual) {
        if (!anyNaN) {
            return actual == bits;
        }
        Value v = IndependentDecoder.decode(format, actual);
        return v.kind() == Value.Kind.NAN && (nanSign == null || v.negative() == nanSign);
    }

    @Override
    public String toString() {
        return anyNaN ? "NaN" + (nanSign == null ? "" : nanSign ? " (negative)" : " (positive)")
                : "0x" + Long.toHexString(bits).toUpperCase();
    }
}
