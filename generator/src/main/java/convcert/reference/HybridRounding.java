package convcert.reference;

import convcert.spec.HybridRule;
import convcert.spec.TaperedRow;

/** CAST_HYBRID's rounding into a tapered format (rh): a threshold per input, from hybrid-rounding.csv. */
final class HybridRounding {

    private final HybridRule hybrid;
    private final Semantics semantics;
    private final FormatCodec src;
    private final FormatCodec dst;
    private final int maxExponent;

    HybridRounding(HybridRule hybrid, Semantics semantics, FormatCodec src, FormatCodec dst) {
        this.hybrid = hybrid;
        this.semantics = semantics;
        this.src = src;
        this.dst = dst;
        this.maxExponent = dst.maxExponent();
    }

    /**
     * CAST_HYBRID into a tapered format (research formats.md 1.4.2): where the input's binade keeps
     * "nearest-away" it is TA; elsewhere the magnitude goes up iff the top discarded bits, read as an
     * unsigned number, are >= a threshold drawn from the input bits (hybrid-rounding.csv).
     */
    boolean roundsUp(int e, long kept, int guard, long significand, int shift, long inputBits, Trace t) {
        TaperedRow row = dst.taperedRow(e);
        boolean half = (guard & Rounder.HALF) != 0;
        if (row.hybrid().equals("nearest-away")) {
            if (t != null) t.note("hybrid: binade " + e + " keeps " + row.mantissaBits() + " mantissa bits, so ties away ("
                    + row.location() + ")");
            return half;
        }
        if (kept == 0 && !half) {
            if (t != null) t.note("hybrid: below half the smallest denormal, rounds to zero");
            return false;
        }
        if (guard == 0 && semantics.get(Semantics.HYBRID_EXACT) == Semantics.HybridExact.KEEP) {
            if (t != null) t.note("hybrid: exact input kept (decision hr-exact=keep)");
            return false;
        }
        int bits = hybrid.compareBits();
        long discarded = Rounder.discarded(significand, shift, bits);
        long threshold = hybrid.threshold(inputBits);
        if (t != null) t.note("hybrid: top " + bits + " discarded bits 0x" + Long.toHexString(discarded)
                + (discarded >= threshold ? " >= " : " < ") + "threshold 0x" + Long.toHexString(threshold) + " ("
                + hybrid.threshold() + ", " + hybrid.location() + ")");
        return discarded >= threshold;
    }

    /** What Converter.hybridComparison answers: the discarded bits and the threshold, or null. */
    long[] comparison(long bits) {
        Unpacked d = src.unpack(bits, new Unpacked());
        if (d.kind != Decoded.Kind.FINITE) {
            return null;
        }
        int e = d.exponent + 63 - Long.numberOfLeadingZeros(d.significand);
        if (e > maxExponent || dst.taperedRow(e).hybrid().equals("nearest-away")) {
            return null;
        }
        int shift = dst.quantum(e) - d.exponent;
        return new long[] {Rounder.discarded(d.significand, shift, hybrid.compareBits()), hybrid.threshold(bits)};
    }
}
