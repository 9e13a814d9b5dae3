package convcert.reference;

import convcert.spec.Layout;

/**
 * Whether bits are a NaN of a format: what nan-comparison=any treats as one result. The suite's Comparison,
 * the exhaustive chunk digests, the block coverage's recipe comparison and the golden files' NaN rule all ask here.
 */
public final class NaNs {

    private NaNs() {
    }

    /** A NaN of the codec's format: not an integer format, no bits beyond its width, and decoded as NaN. */
    public static boolean isNaN(FormatCodec codec, long bits) {
        return !codec.isInteger() && (bits & ~codec.format().mask()) == 0 && codec.decode(bits).kind() == Decoded.Kind.NAN;
    }

    /**
     * A NaN test a test bench writes as one expression: {@code (bits & mask) == equals}, and, where nonzero is
     * not 0, {@code (bits & nonzero) != 0} (an IEEE NaN's mantissa).
     */
    public record Rule(long mask, long equals, long nonzero) {
        public boolean matches(long bits) {
            return (bits & mask) == equals && (nonzero == 0 || (bits & nonzero) != 0);
        }
    }

    /**
     * The rule that tells the format's NaNs from its other codes, or null when it has none. Up to 16 bits it
     * is found from, and checked against, isNaN on every code; wider formats are IEEE interchange formats
     * (an all-ones exponent and a mantissa not 0).
     */
    public static Rule rule(FormatCodec codec) {
        var f = codec.format();
        if (codec.isInteger() || !codec.hasNan()) {
            return null;
        }
        long width = f.mask();
        if (f.width() > 16) {
            if (f.layout() != Layout.IEEE) {
                throw new IllegalStateException("no NaN rule for the " + f.width() + "-bit " + f.layout() + " format " + f.name());
            }
            long exponent = ((1L << f.exponentBits()) - 1) << f.mantissaBits();
            return new Rule(exponent, exponent, (1L << f.mantissaBits()) - 1);
        }
        long ones = width;
        long zeros = width;
        for (long bits = 0; bits <= width; bits++) {
            if (isNaN(codec, bits)) {
                ones &= bits;
                zeros &= ~bits;
            }
        }
        long mask = ones | zeros;
        for (long nonzero : new long[] {0, width & ~mask & ~codec.signBit()}) {
            Rule rule = new Rule(mask, ones, nonzero);
            boolean exact = true;
            for (long bits = 0; bits <= width && exact; bits++) {
                exact = rule.matches(bits) == isNaN(codec, bits);
            }
            if (exact) {
                return rule;
            }
        }
        throw new IllegalStateException("the NaNs of " + f.name() + " are no mask-and-compare rule");
    }
}
