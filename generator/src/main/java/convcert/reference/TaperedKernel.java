package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;

/**
 * Fast path for an IEEE format to a tapered one (float -> HiFloat8) in the modes Rounder's table
 * decides (not rh, whose threshold depends on the input's bits): the destination's grid (quantum per
 * binade, encoding) comes from its codec as in the generic path, without the generic path's decoding
 * and rare-case branches; overflow gives the generic path's overflow result for its sign; NaN and
 * infinity take the generic path. KernelTest checks it.
 */
final class TaperedKernel implements Kernel {

    private final IeeeFields src;
    private final FormatCodec dst;
    private final int maxExponent;
    private final long maxKept;
    private final int roundingTable;
    private final long[][] overflow;

    private TaperedKernel(Format src, Case c, Converter generic) {
        this.src = IeeeFields.of(src);
        this.dst = generic.destination();
        this.maxExponent = dst.maxExponent();
        this.maxKept = dst.maxKept();
        this.roundingTable = Rounder.table(c.rounding());
        this.overflow = generic.overflowCodes();
    }

    static TaperedKernel of(Case c, Semantics s, Converter generic) {
        Format src = c.conversion().from();
        return src.layout() == Layout.IEEE && src.width() <= 64 && c.conversion().to().layout() == Layout.TAPERED
                && Converter.tableRounding(c, s) ? new TaperedKernel(src, c, generic) : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        Unpacked scratch = null;
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = src.field(bits);
            if (src.special(field)) {
                scratch = scratch == null ? new Unpacked() : scratch;
                out[outOffset + i] = generic.applyOne(bits, scratch);
                continue;
            }
            boolean negative = src.negative(bits);
            long significand = src.significand(bits, field);
            if (significand == 0) {
                out[outOffset + i] = dst.zero(negative);
                continue;
            }
            int exponent = src.lsb(field);
            int binade = exponent + 63 - Long.numberOfLeadingZeros(significand);
            if (binade > maxExponent) {
                out[outOffset + i] = overflow[negative ? 1 : 0][1];
                continue;
            }
            int q = dst.quantum(binade);
            int shift = q - exponent; // >= 0: a tapered grid is no finer than an IEEE source's here
            long kept = shift <= 0 ? significand << -shift : Rounder.kept(significand, shift);
            int guard = shift <= 0 ? 0 : Rounder.guard(significand, shift);
            long rounded = kept + (roundingTable >>> Rounder.index(negative, kept, guard) & 1);
            out[outOffset + i] = rounded == 0 ? dst.zero(negative)
                    : binade == maxExponent && rounded > maxKept ? overflow[negative ? 1 : 0][0]
                    : dst.encode(negative, rounded, q);
        }
    }
}
