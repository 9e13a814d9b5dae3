package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;

/**
 * Fast path for an IEEE format to an exponent-only one (float -> E8M0) in rn, rna, rz, ru, rd, ro:
 * the magnitude rounded to a power of two by the mode's decision table on the bits below its leading
 * one (an rn tie by decision exponent-ties); below the smallest power the smallest code, above the largest the generic path's overflow
 * result; a negative value and a zero by their decisions (unsigned-negative, exponent-zero); NaN and
 * infinity take the generic path. KernelTest checks it.
 */
final class ExponentKernel implements Kernel {

    private final IeeeFields src;
    private final int smallest;
    private final int largest;
    private final int dstBias;
    private final int roundingTable;
    private final long negativeCode;
    private final long zeroCode;
    private final long overflowCode;
    private final boolean negativeIsNan;
    private final boolean evenCodeTies;

    private ExponentKernel(Format src, Format dst, Case c, Semantics s, Converter generic) {
        this.src = IeeeFields.of(src);
        this.dstBias = dst.bias();
        this.smallest = -dst.bias();
        this.largest = (int) dst.maxFinite() - dst.bias();
        this.roundingTable = Rounder.table(c.rounding());
        this.negativeIsNan = s.get(Semantics.UNSIGNED_NEGATIVE) == Semantics.UnsignedNegative.NAN;
        this.negativeCode = dst.nan();
        this.zeroCode = s.get(Semantics.EXPONENT_ZERO) == Semantics.ExponentZero.NAN ? dst.nan() : 0;
        this.evenCodeTies = Converter.evenCodeTies(c, s);
        this.overflowCode = generic.overflowCodes()[0][0]; // the magnitude overflows, with the sign set aside
    }

    static ExponentKernel of(Case c, Semantics s, Converter generic) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        return src.layout() == Layout.IEEE && src.width() <= 64 && dst.layout() == Layout.EXPONENT
                && Kernel.tableRounding(c, s) ? new ExponentKernel(src, dst, c, s, generic) : null;
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int field = src.field(bits);
            long significand = src.significand(bits, field);
            if (src.special(field)) {
                out[outOffset + i] = generic.apply(bits);
            } else if (significand == 0) {
                out[outOffset + i] = zeroCode;
            } else if (src.negative(bits) && negativeIsNan) {
                out[outOffset + i] = negativeCode;
            } else {
                out[outOffset + i] = round(field, significand);
            }
        }
    }

    private long round(int field, long significand) {
        int top = 63 - Long.numberOfLeadingZeros(significand); // bits below the leading one
        int binade = src.lsb(field) + top;
        if (binade < smallest) {
            return 0; // below the smallest power of two: it, whichever way the rounding goes
        }
        int guard = Rounder.guard(significand, top);
        // the magnitude keeps 1 (odd), or under exponent-ties=even-code the code's last bit decides a tie
        int up = roundingTable >>> Rounder.index(false, evenCodeTies ? binade + dstBias : 1, guard) & 1;
        int result = binade + up;
        return result > largest ? overflowCode : result + dstBias;
    }
}
