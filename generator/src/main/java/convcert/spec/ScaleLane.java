package convcert.spec;

/**
 * A scaled conversion's scale operand (conversions.csv's optional scale column): each value comes with
 * an integer k of {@code bits} bits, read signed or unsigned, and converts as value x 2^(k - bias) (or
 * 2^-(k - bias) where the scale divides), exactly, with one rounding. Written {@code [-]sBITS} or
 * {@code [-]uBITS} (bias 0): Arm FEAT_FP8's narrowing FCVTN is {@code s8} (x 2^SInt(FPMR.NSCALE); from
 * half {@code s5}, NSCALE[4:0]), its widening F1CVT {@code -u4} (x 2^-UInt(FPMR.LSCALE[3:0])) and BF1CVT
 * {@code -u6}. A trailing {@code n} makes the lane's smallest value (signed) or largest (unsigned) a NaN
 * scale, under which every value converts as a NaN of its sign: HIP's OCP microscaling API takes an int8
 * exponent whose -128 is NaN ({@code -s8n}); {@link #asE8m0()} reads the same byte as OCP's E8M0.
 */
public record ScaleLane(int bits, boolean signed, boolean divides, boolean hasNan, int bias) {

    public ScaleLane {
        if (bits < 1 || bits > 16) {
            throw new IllegalArgumentException("a scale has 1 to 16 bits, not " + bits);
        }
    }

    /** Parses the column's text; null where it is malformed. */
    public static ScaleLane parse(String text) {
        boolean divides = text.startsWith("-");
        String rest = divides ? text.substring(1) : text;
        boolean hasNan = rest.endsWith("n");
        String width = hasNan ? rest.substring(0, rest.length() - 1) : rest;
        if (!width.matches("[su](1[0-6]|[1-9])")) {
            return null;
        }
        return new ScaleLane(Integer.parseInt(width.substring(1)), width.charAt(0) == 's', divides, hasNan, 0);
    }

    /** The same lane's byte read as OCP MX's E8M0: unsigned, 2^(k - 127), 0xFF NaN. */
    public ScaleLane asE8m0() {
        if (bits != 8) {
            throw new IllegalStateException("only an 8-bit scale reads as E8M0, not " + this);
        }
        return new ScaleLane(8, false, divides, true, 127);
    }

    /** The power of two a lane value (its low bits) multiplies by; a NaN scale's is meaningless. */
    public int exponent(long code) {
        long k = integer(code) - bias;
        return (int) (divides ? -k : k);
    }

    /** Whether a lane value is the NaN scale. */
    public boolean isNan(long code) {
        return hasNan && integer(code) == (signed ? min() : max());
    }

    /** The integer a lane value reads as (its low bits, signed or not). */
    private long integer(long code) {
        return signed ? code << (64 - bits) >> (64 - bits) : code & ((1L << bits) - 1);
    }

    /** The lane value of a scale k as an integer (signed lanes: two's complement); the caller checks the range. */
    public long code(long k) {
        return k & ((1L << bits) - 1);
    }

    /** The smallest and largest integer a lane value reads as. */
    public long min() {
        return signed ? -(1L << (bits - 1)) : 0;
    }

    public long max() {
        return signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    }

    @Override
    public String toString() {
        return bias == 127 ? (divides ? "-" : "") + "e8m0" : (divides ? "-" : "") + (signed ? "s" : "u") + bits + (hasNan ? "n" : "");
    }
}
