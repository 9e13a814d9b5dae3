package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;

/**
 * Fast path for an IEEE format into a wider one that holds every value of it exactly (float ->
 * double, half -> float, bfloat16 -> float): the value is re-encoded, subnormals normalised; NaN and
 * infinity take the generic path. KernelTest checks it.
 */
final class FloatWideningKernel implements Kernel {

    private final IeeeFields src;
    private final int dstMantissa;
    private final int dstBias;
    private final int dstSignShift;
    private final long dstMantissaMask;

    private FloatWideningKernel(Format src, Format dst) {
        this.src = IeeeFields.of(src);
        this.dstMantissa = dst.mantissaBits();
        this.dstBias = dst.bias();
        this.dstSignShift = dst.width() - 1;
        this.dstMantissaMask = (1L << dst.mantissaBits()) - 1;
    }

    /** Where every source value, subnormals included, is a normal value (or zero) of the destination. */
    static FloatWideningKernel of(Case c) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        boolean applies = src.layout() == Layout.IEEE && dst.layout() == Layout.IEEE && !c.conversion().sameType()
                && dst.mantissaBits() >= src.mantissaBits() && dst.width() <= 64
                && 1 - dst.bias() <= 1 - src.bias() - src.mantissaBits()   // the smallest subnormal is normal there
                && ((1L << dst.exponentBits()) - 2 - dst.bias()) >= ((1L << src.exponentBits()) - 2 - src.bias());
        return applies ? new FloatWideningKernel(src, dst) : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = src.field(bits);
            if (src.special(field)) {
                out[outOffset + i] = generic.apply(bits);
                continue;
            }
            long sign = src.negative(bits) ? 1L << dstSignShift : 0;
            long significand = src.significand(bits, field);
            if (significand == 0) {
                out[outOffset + i] = sign;
                continue;
            }
            int lsb = src.lsb(field);
            int top = 63 - Long.numberOfLeadingZeros(significand);
            int binade = lsb + top;
            long fraction = (significand << (dstMantissa - top)) & dstMantissaMask;
            out[outOffset + i] = sign | (long) (binade + dstBias) << dstMantissa | fraction;
        }
    }
}
