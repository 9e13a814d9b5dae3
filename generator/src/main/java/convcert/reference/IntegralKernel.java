package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * Fast path for rounding an IEEE format to an integral value of itself (float -> float rn, the
 * OpenCL/CUDA rint family) in every mode but rh: values with no fraction bits are returned as they
 * are, the others rounded by the mode's decision table and encoded back; NaN and infinity take the
 * generic path. KernelTest checks it.
 */
final class IntegralKernel implements Kernel {

    private final IeeeFields f;
    private final int roundingTable;

    private IntegralKernel(Format f, Rounding mode) {
        this.f = IeeeFields.of(f);
        this.roundingTable = Rounder.table(mode);
    }

    static IntegralKernel of(Case c) {
        Format f = c.conversion().from();
        return c.conversion().integral() && f.layout() == Layout.IEEE && f.width() <= 64
                && c.rounding() != Rounding.RH ? new IntegralKernel(f, c.rounding()) : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = f.field(bits);
            if (f.special(field)) {
                out[outOffset + i] = generic.apply(bits);
                continue;
            }
            int lsb = f.lsb(field);
            if (lsb >= 0) {
                out[outOffset + i] = bits; // no fraction bits: already integral
                continue;
            }
            boolean negative = f.negative(bits);
            long significand = f.significand(bits, field);
            int s = Math.min(-lsb, 63);
            long kept = significand >>> s;
            int guard = Rounder.guard(significand, s);
            kept += roundingTable >>> Rounder.index(negative, kept, guard) & 1;
            long sign = negative ? 1L << f.signShift() : 0;
            if (kept == 0) {
                out[outOffset + i] = sign;
                continue;
            }
            int binade = 63 - Long.numberOfLeadingZeros(kept); // at most the mantissa width: exact
            out[outOffset + i] = sign | (long) (binade + f.bias()) << f.mantissa()
                    | (kept << (f.mantissa() - binade) & f.mantissaMask());
        }
    }
}
