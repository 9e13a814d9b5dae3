package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Saturation;

/**
 * Fast path for an integer to another integer format (int32 -> int8, uint32 -> int64, ...): the
 * value is exact, so only its range matters (IntegerRange: saturate or wrap). KernelTest checks it.
 */
final class IntegerToIntegerKernel implements Kernel {

    private final boolean signed;
    private final int width;
    private final IntegerRange range;

    private IntegerToIntegerKernel(Format src, Format dst, boolean wrapping) {
        this.signed = src.isSigned();
        this.width = src.width();
        this.range = IntegerRange.of(dst, wrapping);
    }

    static IntegerToIntegerKernel of(Case c) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        return src.isInteger() && dst.isInteger() && !c.conversion().sameType()
                ? new IntegerToIntegerKernel(src, dst, c.saturation() == Saturation.WRAP) : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            long value = signed ? bits << (64 - width) >> (64 - width) : width == 64 ? bits : bits & ((1L << width) - 1);
            boolean negative = signed && value < 0;
            out[outOffset + i] = range.result(negative, negative ? -value : value);
        }
    }
}
