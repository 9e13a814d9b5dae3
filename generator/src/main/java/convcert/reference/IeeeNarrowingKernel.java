package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * Fast path for narrowing an IEEE format to an IEEE-like floating one (float -> half, bfloat16, FP8,
 * FP6, FP4; double -> float, ...) in rn, rna, rz, ru, rd and ro. A finite input's exponent field
 * alone fixes how many significand bits the destination keeps and where its result's code starts,
 * so a table per exponent field (computed once from the two format rows) turns rounding into a
 * shift, two masks, the mode's 16-bit decision table (Rounder, as the generic path) and an add.
 * Overflow gives the generic path's overflow result for its sign (computed once); NaN and infinity
 * go to the generic path. The generic path ran at 47-96 M values/s (docs/performance.md);
 * KernelTest checks this one against it (all 2^32 float inputs for float -> half in every mode).
 */
final class IeeeNarrowingKernel implements Kernel {

    private static final int SPECIAL = -1;
    private static final int BEYOND = -2;

    private final IeeeFields src;
    private final long dstSign;
    private final long dstMaxFinite;
    private final int roundingTable;
    /**
     * Per exponent field, in one long (one load per value): the code base << 8 | the bits discarded,
     * capped at 63 (or SPECIAL, BEYOND), as a byte.
     */
    private final long[] fieldParameters;
    /** The generic path's overflow results: [negative][beyond the largest binade]. */
    private final long[][] overflow;

    private IeeeNarrowingKernel(Format src, Format dst, Rounding mode, int dstMaxExponent, long[][] overflow) {
        this.src = IeeeFields.of(src);
        this.dstSign = 1L << (dst.width() - 1);
        this.dstMaxFinite = dst.maxFinite();
        this.roundingTable = Rounder.table(mode);
        this.overflow = overflow;
        int fields = 1 << src.exponentBits();
        this.fieldParameters = new long[fields];
        int dstMinExponent = 1 - dst.bias();
        for (int e = 0; e < fields; e++) {
            int binade = e == 0 ? 1 - src.bias() : e - src.bias(); // subnormals: below the smallest normal binade
            if (e == fields - 1 || binade > dstMaxExponent) {
                fieldParameters[e] = (e == fields - 1 ? SPECIAL : BEYOND) & 0xFF;
                continue;
            }
            int lsb = binade - src.mantissaBits(); // the weight of the significand's last bit
            int quantum = Math.max(e == 0 ? binade - 1 : binade, dstMinExponent) - dst.mantissaBits();
            long base = (long) (Math.max(quantum + dst.mantissaBits() + dst.bias(), 1) - 1) << dst.mantissaBits();
            fieldParameters[e] = base << 8 | Math.min(quantum - lsb, 63);
        }
    }

    /**
     * The kernel for a case, or null where it does not apply: an IEEE source, an IEEE-like destination
     * with a negative zero whose significand is no wider, whose smallest normal binade is no lower and
     * whose smallest quantum is no finer than the source's (so rounding only ever discards bits, and a
     * source subnormal always lands in the destination's subnormal range), one of the six rounding
     * modes, subnormal results kept, and no directed overflow to infinity (that decision looks at the
     * discarded bits in the top binade).
     */
    static IeeeNarrowingKernel of(Case c, Semantics s, Converter generic) {
        Format src = c.conversion().from();
        Format dst = c.conversion().to();
        boolean applies = src.layout() == Layout.IEEE && src.width() <= 64 && !c.conversion().sameType()
                && (dst.layout() == Layout.IEEE || dst.layout() == Layout.IEEE_FN) && dst.negativeZero()
                && dst.mantissaBits() <= src.mantissaBits() && 1 - dst.bias() >= 1 - src.bias()
                && 1 - dst.bias() - dst.mantissaBits() >= 1 - src.bias() - src.mantissaBits()
                && Kernel.tableRounding(c, s);
        if (!applies) {
            return null;
        }
        return new IeeeNarrowingKernel(src, dst, c.rounding(), generic.destination().maxExponent(), generic.overflowCodes());
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            long code = round(bits);
            if (code < 0) {
                code = generic.apply(bits);
            }
            out[outOffset + i] = code;
        }
    }

    /**
     * Consecutive inputs come in runs that share sign and exponent field (2^mantissa of them), so the
     * field's parameters are read once per run and the loop over a run is arithmetic alone.
     */
    @Override
    public void applyConsecutive(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        long runMask = src.mantissaMask();
        for (int i = 0; i < count; ) {
            long bits = in[inOffset + i];
            int run = (int) Math.min(count - i, runMask + 1 - (bits & runMask));
            int field = src.field(bits);
            long parameters = fieldParameters[field];
            int s = (byte) parameters;
            if (s < 0) {
                apply(in, inOffset + i, out, outOffset + i, run, generic);
            } else {
                int negative = src.negative(bits) ? 1 : 0;
                roundRun(src.significand(bits, field), s, (1L << s) >>> 1, parameters >> 8,
                        roundingTable >>> (negative << 3), negative != 0 ? dstSign : 0, overflow[negative][0],
                        out, outOffset + i, run);
            }
            i += run;
        }
    }

    /** round() over count consecutive significands from the first, in one field: table is the mode's, shifted for the sign. */
    private void roundRun(long first, int s, long half, long base, int table, long sign, long overflowCode,
                          long[] out, int offset, int count) {
        long sticky = half - 1;
        for (int k = 0; k < count; k++) {
            long significand = first + k;
            long kept = significand >>> s;
            int guard = ((significand & half) != 0 ? Rounder.HALF : 0) | ((significand & sticky) != 0 ? Rounder.STICKY : 0);
            long code = base + kept + (table >>> ((int) (kept & 1) << 2 | guard) & 1);
            out[offset + k] = code > dstMaxFinite ? overflowCode : code | sign;
        }
    }

    /** The destination's bit pattern, or -1 for the generic path (NaN and infinity). */
    long round(long bits) {
        int negative = src.sign(bits);
        int field = src.field(bits);
        long parameters = fieldParameters[field];
        int s = (byte) parameters;
        if (s < 0) {
            return s == SPECIAL ? -1 : overflow[negative][1];
        }
        long significand = src.significand(bits, field);
        long kept = significand >>> s;
        long half = (1L << s) >>> 1; // the first discarded bit (s <= 63); the bits below it are sticky
        int guard = ((significand & half) != 0 ? Rounder.HALF : 0) | ((significand & (half - 1)) != 0 ? Rounder.STICKY : 0);
        kept += roundingTable >>> (negative << 3 | (int) (kept & 1) << 2 | guard) & 1; // Rounder.index
        // kept * 2^quantum: the code is the binade's base plus kept, its leading one included (a carry
        // into the next binade, or from subnormal to normal, adds up right); a zero input has base 0
        long code = (parameters >> 8) + kept;
        if (code > dstMaxFinite) {
            return overflow[negative][0];
        }
        return code | (-negative & dstSign); // without a branch: the sign is as likely either way
    }
}
