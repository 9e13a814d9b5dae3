package convcert.spec;

/**
 * A scaled conversion's scale operand (conversions.csv's optional scale column): each value comes with
 * an integer k of {@code bits} bits, read signed or unsigned, and converts as value x 2^k (or 2^-k where
 * the scale divides), exactly, with one rounding. Written {@code [-]sBITS} or {@code [-]uBITS}: Arm
 * FEAT_FP8's narrowing FCVTN is {@code s8} (x 2^SInt(FPMR.NSCALE); from half {@code s5}, NSCALE[4:0]), its widening F1CVT {@code -u4}
 * (x 2^-UInt(FPMR.LSCALE[3:0])) and BF1CVT {@code -u6}.
 */
public record ScaleLane(int bits, boolean signed, boolean divides) {

    public ScaleLane {
        if (bits < 1 || bits > 16) {
            throw new IllegalArgumentException("a scale has 1 to 16 bits, not " + bits);
        }
    }

    /** Parses the column's text; null where it is malformed. */
    public static ScaleLane parse(String text) {
        boolean divides = text.startsWith("-");
        String rest = divides ? text.substring(1) : text;
        if (!rest.matches("[su](1[0-6]|[1-9])")) {
            return null;
        }
        return new ScaleLane(Integer.parseInt(rest.substring(1)), rest.charAt(0) == 's', divides);
    }

    /** The power of two a lane value (its low bits) multiplies by. */
    public int exponent(long code) {
        long k = signed ? code << (64 - bits) >> (64 - bits) : code & ((1L << bits) - 1);
        return (int) (divides ? -k : k);
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
        return (divides ? "-" : "") + (signed ? "s" : "u") + bits;
    }
}
