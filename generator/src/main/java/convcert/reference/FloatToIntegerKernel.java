package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * Fast path for an IEEE format to an integer (float -> int32, half -> uint64, ...) in rn, rna, rz,
 * ru, rd and ro: as IeeeNarrowingKernel, a table per source exponent field says how the significand
 * becomes the integer (bits discarded, or bits to shift in), and the mode's decision table rounds;
 * results outside the destination saturate or wrap (IntegerRange). NaN and infinity take the
 * generic path. KernelTest checks it.
 */
final class FloatToIntegerKernel implements Kernel {

    private static final int SPECIAL = Integer.MIN_VALUE;

    private final int srcMantissa;
    private final int srcSignShift;
    private final long exponentMask;
    private final long mantissaMask;
    private final int significandBits;
    private final IntegerRange range;
    private final int roundingTable;
    /** Per exponent field: bits discarded (> 0, capped at 63), or minus the bits shifted in; SPECIAL. */
    private final int[] shift;

    private FloatToIntegerKernel(Format src, Format dst, Rounding mode, boolean wrapping) {
        this.srcMantissa = src.mantissaBits();
        this.srcSignShift = src.width() - 1;
        this.exponentMask = (1L << src.exponentBits()) - 1;
        this.mantissaMask = (1L << src.mantissaBits()) - 1;
        this.significandBits = src.mantissaBits() + 1;
        this.range = IntegerRange.of(dst, wrapping);
        this.roundingTable = Rounder.table(mode);
        int fields = 1 << src.exponentBits();
        this.shift = new int[fields];
        for (int e = 0; e < fields; e++) {
            int lsb = (e == 0 ? 1 - src.bias() : e - src.bias()) - src.mantissaBits();
            shift[e] = e == fields - 1 ? SPECIAL : lsb >= 0 ? -lsb : Math.min(-lsb, 63);
        }
    }

    /** The kernel for an IEEE -> integer case (not hybrid), or null. */
    static FloatToIntegerKernel of(Case c) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        boolean applies = src.layout() == Layout.IEEE && src.width() <= 64 && dst.isInteger() && c.rounding() != Rounding.RH;
        return applies ? new FloatToIntegerKernel(src, dst, c.rounding(), c.saturation() == convcert.spec.Saturation.WRAP)
                : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        Unpacked scratch = new Unpacked();
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = (int) (bits >>> srcMantissa & exponentMask);
            out[outOffset + i] = shift[field] == SPECIAL ? generic.applyOne(bits, scratch) : round(bits, field);
        }
    }

    private long round(long bits, int field) {
        boolean negative = (bits >>> srcSignShift & 1) != 0;
        int s = shift[field];
        long significand = (bits & mantissaMask) | (field == 0 ? 0 : mantissaMask + 1);
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
