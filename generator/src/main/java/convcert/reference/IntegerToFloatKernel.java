package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * Fast path for an integer to an IEEE-like floating format (int32 -> float, uint64 -> half, ...) in
 * rn, rna, rz, ru, rd and ro: the magnitude's leading one gives the binade, the destination's
 * quantum there the bits to discard, the mode's decision table (Rounder) the rounding, and the code
 * is the binade's base plus the kept bits, as in IeeeNarrowingKernel; overflow gives the generic
 * path's overflow result for its sign. KernelTest checks it against the generic path.
 */
final class IntegerToFloatKernel implements Kernel {

    private final boolean signed;
    private final int width;
    private final int dstMantissa;
    private final int dstBias;
    private final int dstMinExponent;
    private final int dstMaxExponent;
    private final long dstSign;
    private final long dstMaxFinite;
    private final int roundingTable;
    /** The generic path's overflow results: [negative][beyond the largest binade]. */
    private final long[][] overflow;

    private IntegerToFloatKernel(Format src, Format dst, Rounding mode, int dstMaxExponent, long[][] overflow) {
        this.signed = src.layout() == Layout.INT;
        this.width = src.width();
        this.dstMantissa = dst.mantissaBits();
        this.dstBias = dst.bias();
        this.dstMinExponent = 1 - dst.bias();
        this.dstMaxExponent = dstMaxExponent;
        this.dstSign = 1L << (dst.width() - 1);
        this.dstMaxFinite = dst.maxFinite();
        this.roundingTable = Rounder.table(mode);
        this.overflow = overflow;
    }

    /** The kernel for an integer -> IEEE-like case (the conditions of IeeeNarrowingKernel on rounding), or null. */
    static IntegerToFloatKernel of(Case c, Semantics s, Converter generic) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        boolean applies = src.isInteger() && (dst.layout() == Layout.IEEE || dst.layout() == Layout.IEEE_FN)
                && Kernel.tableRounding(c, s);
        if (!applies) {
            return null;
        }
        return new IntegerToFloatKernel(src, dst, c.rounding(), generic.destination().maxExponent(), generic.overflowCodes());
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            out[outOffset + i] = round(in[inOffset + i]);
        }
    }

    long round(long bits) {
        long value = signed ? bits << (64 - width) >> (64 - width) : bits & (width == 64 ? -1L : (1L << width) - 1);
        int negative = signed && value < 0 ? 1 : 0;
        long magnitude = negative != 0 ? -value : value; // read unsigned: -MIN is 2^63
        if (magnitude == 0) {
            return 0;
        }
        int binade = 63 - Long.numberOfLeadingZeros(magnitude);
        if (binade > dstMaxExponent) {
            return overflow[negative][1];
        }
        int quantum = Math.max(binade, dstMinExponent) - dstMantissa;
        long kept = quantum <= 0 ? magnitude << -quantum : magnitude >>> quantum;
        int guard = quantum <= 0 ? 0 : Rounder.guard(magnitude, quantum);
        kept += roundingTable >>> Rounder.index(negative != 0, kept, guard) & 1;
        long code = ((long) Math.max(quantum + dstMantissa + dstBias, 1) - 1 << dstMantissa) + kept;
        if (code > dstMaxFinite) {
            return overflow[negative][0];
        }
        return negative != 0 ? code | dstSign : code;
    }
}
