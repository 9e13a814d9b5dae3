package convcert.reference;

import convcert.spec.Format;

/**
 * The fields of an IEEE source's bit patterns, as the kernels read them: the sign, the exponent
 * field (all ones: infinity or NaN, for the generic path), and the significand with its weight.
 */
record IeeeFields(int mantissa, int bias, int signShift, long exponentMask, long mantissaMask) {

    static IeeeFields of(Format f) {
        return new IeeeFields(f.mantissaBits(), f.bias(), f.width() - 1, (1L << f.exponentBits()) - 1,
                (1L << f.mantissaBits()) - 1);
    }

    boolean negative(long bits) {
        return (bits >>> signShift & 1) != 0;
    }

    /** The sign bit, 0 or 1. */
    int sign(long bits) {
        return (int) (bits >>> signShift) & 1;
    }

    int field(long bits) {
        return (int) (bits >>> mantissa & exponentMask);
    }

    /** Infinity or NaN. */
    boolean special(int field) {
        return field == exponentMask;
    }

    /** The significand, the leading one included for normal values. */
    long significand(long bits, int field) {
        return (bits & mantissaMask) | (field == 0 ? 0 : mantissaMask + 1);
    }

    /** The weight (exponent) of the significand's last bit. */
    int lsb(int field) {
        return (field == 0 ? 1 : field) - bias - mantissa;
    }
}
