package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;

/**
 * An integer destination's range and what a value outside it becomes (its low bits when wrapping,
 * else the nearest end): the last step of the kernels that produce integers, as Converter's own.
 */
record IntegerRange(boolean signed, long min, long max, long mask, boolean wrapping) {

    static IntegerRange of(Format dst, boolean wrapping) {
        boolean signed = dst.layout() == Layout.INT;
        return new IntegerRange(signed, signed ? 1L << (dst.width() - 1) : 0, dst.maxFinite(), dst.mask(), wrapping);
    }

    /** The result for a value of this sign and magnitude (read unsigned). */
    long result(boolean negative, long magnitude) {
        boolean inRange = signed ? Long.compareUnsigned(magnitude, negative ? min : max) <= 0
                : negative ? magnitude == 0 : Long.compareUnsigned(magnitude, max) <= 0;
        return inRange ? (negative ? -magnitude : magnitude) & mask : outside(negative, magnitude);
    }

    /** A value known to lie outside: lowBits are the low 64 bits of its magnitude. */
    long outside(boolean negative, long lowBits) {
        return wrapping ? (negative ? -lowBits : lowBits) & mask : negative ? min : max;
    }
}
