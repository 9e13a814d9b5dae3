package convcert.reference;

import convcert.spec.Format;
import convcert.spec.HybridRule;
import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * Fast path for an IEEE format to a tapered one (float, half -> HiFloat8), in the modes Rounder's
 * table decides and in hybrid rounding (rh). As for IEEE narrowing, a finite input's exponent field
 * fixes the destination's quantum, so a table per field gives the bits to discard; the destination's
 * codes for every kept value a field can round to (its carry and the overflow of the largest binade
 * included) are encoded once by the codec, so rounding ends in one array read. Under rh a field
 * whose binade rounds ties-away (tapered.csv) uses rna's table, the others compare the top discarded
 * bits with the threshold drawn from the input (hybrid-rounding.csv), as the generic path does. NaN,
 * infinity, and source subnormals whose binades the destination does not treat alike go to the
 * generic path. KernelTest checks it (all 2^32 floats to HiFloat8 in rh and rna in the slow tier).
 */
final class TaperedKernel implements Kernel {

    private static final int GENERIC = -1;
    private static final int BEYOND = -2;
    /** A field's decision under rh where the threshold compare decides (else a Rounder table). */
    private static final int THRESHOLD = -1;
    /** At most this many codes in the table (a tapered format with wide mantissas takes the generic path). */
    private static final int MAX_CODES = 1 << 16;

    private final IeeeFields src;
    private final HybridRule hybrid;
    private final int compareBits;
    private final boolean keepExact;
    /** Per exponent field: bits discarded (capped at 63; GENERIC, BEYOND), the decision, where its codes start. */
    private final int[] shift;
    private final int[] table;
    private final int[] start;
    /** codes[negative * stride + start[field] + rounded kept]. */
    private final long[] codes;
    private final int stride;
    private final long[][] overflow;

    private TaperedKernel(Format format, Case c, Converter generic, int[] shift, int[] start, int stride) {
        this.src = IeeeFields.of(format);
        this.hybrid = c.rounding() == Rounding.RH ? generic.hybridRule() : null;
        this.compareBits = hybrid == null ? 0 : hybrid.compareBits();
        this.keepExact = generic.semantics().get(Semantics.HYBRID_EXACT) == Semantics.HybridExact.KEEP;
        this.shift = shift;
        this.start = start;
        this.stride = stride;
        this.overflow = generic.overflowCodes();
        FormatCodec dst = generic.destination();
        int fields = shift.length;
        this.table = new int[fields];
        this.codes = new long[2 * stride];
        for (int e = 0; e < fields; e++) {
            int s = shift[e];
            if (s < 0) {
                continue;
            }
            int binade = binades(src, e)[1];
            table[e] = hybrid == null ? Rounder.table(c.rounding())
                    : dst.taperedRow(binade).hybrid().equals("nearest-away") ? Rounder.table(Rounding.RNA) : THRESHOLD;
            int q = dst.quantum(binade);
            long[] kept = keptRange(src, e, s);
            for (int negative = 0; negative < 2; negative++) {
                for (long k = kept[0]; k <= kept[1]; k++) {
                    codes[negative * stride + start[e] + (int) (k - kept[0])] = k == 0 ? dst.zero(negative != 0)
                            : binade == dst.maxExponent() && k > dst.maxKept() ? overflow[negative][0]
                            : dst.encode(negative != 0, k, q);
                }
            }
            start[e] -= (int) kept[0];
        }
    }

    /** The binades of a field's values: one for a normal field, the source's subnormal binades for field 0. */
    private static int[] binades(IeeeFields src, int field) {
        return field == 0 ? new int[] {1 - src.bias() - src.mantissa(), -src.bias()}
                : new int[] {field - src.bias(), field - src.bias()};
    }

    /** The kept values a field's significands give before and after rounding up. */
    private static long[] keptRange(IeeeFields src, int field, int s) {
        long low = field == 0 ? 0 : src.mantissaMask() + 1;
        long high = field == 0 ? src.mantissaMask() : 2 * src.mantissaMask() + 1;
        return new long[] {low >>> s, (high >>> s) + 1};
    }

    static TaperedKernel of(Case c, Semantics s, Converter generic) {
        Format src = c.conversion().from();
        boolean hybrid = c.rounding() == Rounding.RH;
        if (src.layout() != Layout.IEEE || src.width() > 64 || c.conversion().to().layout() != Layout.TAPERED
                || !(Kernel.tableRounding(c, s) || hybrid && generic.hybridRule() != null
                        && s.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.KEEP)) {
            return null;
        }
        // The per-field shifts and where each field's codes start; null where there are too many codes.
        FormatCodec dst = generic.destination();
        IeeeFields fields = IeeeFields.of(src);
        int count = (int) fields.exponentMask() + 1;
        int[] shift = new int[count];
        int[] start = new int[count];
        int next = 0;
        for (int e = 0; e < count; e++) {
            int[] binades = binades(fields, e);
            if (fields.special(e)) {
                shift[e] = GENERIC;
                continue;
            }
            if (binades[1] > dst.maxExponent()) {
                shift[e] = BEYOND;
                continue;
            }
            int q = dst.quantum(binades[1]);
            boolean uniform = true; // the binades of a field share the destination's quantum and hybrid rule
            for (int b = binades[0]; b <= binades[1]; b++) {
                uniform &= dst.quantum(b) == q && dst.taperedRow(b).hybrid().equals(dst.taperedRow(binades[1]).hybrid());
            }
            boolean thresholdAtTop = hybrid && binades[1] == dst.maxExponent()
                    && s.get(Semantics.HYBRID_BAND) == Semantics.HybridBand.TA_THRESHOLD; // looks at the unrounded value: generic
            if (!uniform || q < fields.lsb(e) || thresholdAtTop) {
                shift[e] = GENERIC;
                continue;
            }
            shift[e] = Math.min(q - fields.lsb(e), 63);
            start[e] = next;
            long[] kept = keptRange(fields, e, shift[e]);
            next += (int) (kept[1] - kept[0] + 1);
            if (next > MAX_CODES) {
                return null;
            }
        }
        return new TaperedKernel(src, c, generic, shift, start, next);
    }

    @Override
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        for (int i = 0; i < count; i++) {
            long bits = in[inOffset + i];
            int negative = src.negative(bits) ? 1 : 0;
            int field = src.field(bits);
            int s = shift[field];
            if (s < 0) {
                if (s == BEYOND) {
                    out[outOffset + i] = overflow[negative][1];
                } else {
                    out[outOffset + i] = generic.apply(bits);
                }
                continue;
            }
            long significand = src.significand(bits, field);
            long kept = significand >>> s;
            long unit = 1L << s; // s <= 63
            long rest = significand & (unit - 1);
            long half = unit >>> 1;
            int decision = table[field];
            long up;
            if (decision != THRESHOLD) {
                int guard = ((rest & half) != 0 ? Rounder.HALF : 0) | ((rest & (half - 1)) != 0 ? Rounder.STICKY : 0);
                up = decision >>> (negative << 3 | (int) (kept & 1) << 2 | guard) & 1; // Rounder.index
            } else {
                up = hybridUp(bits, significand, s, kept, rest, half);
            }
            out[outOffset + i] = codes[negative * stride + start[field] + (int) (kept + up)];
        }
    }

    /** Converter.hybridRoundsUp outside the ties-away binades: 1 to round the magnitude up. */
    private long hybridUp(long bits, long significand, int s, long kept, long rest, long half) {
        if (kept == 0 && (rest & half) == 0 || rest == 0 && keepExact) {
            return 0; // below half the smallest subnormal; or an exact input kept (decision hr-exact)
        }
        long discarded = s >= compareBits ? significand >>> (s - compareBits) & ((1L << compareBits) - 1)
                : rest << (compareBits - s);
        return discarded >= hybrid.threshold(bits) ? 1 : 0;
    }
}
