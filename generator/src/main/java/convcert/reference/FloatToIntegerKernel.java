package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.Saturation;

/**
 * Fast path for an IEEE format to an integer (float -> int32, half -> uint64, ...) in rn, rna, rz,
 * ru, rd and ro: as IeeeNarrowingKernel, a table per source exponent field says how the significand
 * becomes the integer (bits discarded, or bits to shift in), and the mode's decision table rounds;
 * results outside the destination saturate or wrap (IntegerRange). NaN and infinity take the
 * generic path. KernelTest checks it.
 */
final class FloatToIntegerKernel implements Kernel {

    private static final int SPECIAL = Integer.MIN_VALUE;

    private final IeeeFields src;
    private final int significandBits;
    private final IntegerRange range;
    private final int roundingTable;
    /** Per exponent field: bits discarded (> 0, capped at 63), or minus the bits shifted in; SPECIAL. */
    private final int[] shift;

    private FloatToIntegerKernel(Format src, Format dst, Rounding mode, boolean wrapping) {
        this.src = IeeeFields.of(src);
        this.significandBits = src.mantissaBits() + 1;
        this.range = IntegerRange.of(dst, wrapping);
        this.roundingTable = Rounder.table(mode);
        int fields = 1 << src.exponentBits();
        this.shift = new int[fields];
        for (int e = 0; e < fields; e++) {
            int lsb = this.src.lsb(e);
            shift[e] = e == fields - 1 ? SPECIAL : lsb >= 0 ? -lsb : Math.min(-lsb, 63);
        }
    }

    /** The kernel for an IEEE -> integer case (not hybrid), or null. */
    static FloatToIntegerKernel of(Case c) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        boolean applies = src.layout() == Layout.IEEE && src.width() <= 64 && dst.isInteger() && c.rounding() != Rounding.RH;
        return applies ? new FloatToIntegerKernel(src, dst, c.rounding(), c.saturation() == Saturation.WRAP)
                : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = src.field(bits);
            out[outOffset + i] = shift[field] == SPECIAL ? generic.apply(bits) : round(bits, field);
        }
    }

    private long round(long bits, int field) {
        boolean negative = src.negative(bits);
        int s = shift[field];
        long significand = src.significand(bits, field);
        if (s <= 0) { // an integer already: 2^64 or more is outside every integer format
            long lowBits = -s >= 64 ? 0 : significand << -s;
            return significandBits - s > 64 ? range.outside(negative, lowBits) : range.result(negative, lowBits);
        }
        long kept = significand >>> s;
        long rest = significand & ((1L << s) - 1);
        long half = 1L << (s - 1);
        int guard = ((rest & half) != 0 ? Rounder.HALF : 0) | ((rest & (half - 1)) != 0 ? Rounder.STICKY : 0);
        return range.result(negative, kept + (roundingTable >>> Rounder.index(negative, kept, guard) & 1));
    }
}
