package convcert.reference;

import convcert.spec.HybridRule;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.TaperedRow;

/**
 * One resolved {@link Case}, ready to convert bit patterns: the bit-exact reference. Every pair runs
 * through the same steps: decode the source, handle zero/infinity/NaN by the saturation behaviour,
 * otherwise round the exact value sign * significand * 2^exponent onto the destination's grid
 * (or to an integer), then handle overflow and encode.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Converter {

    private final Case spec;
    private final Semantics semantics;
    private final FormatCodec src;
    private final FormatCodec dst;
    private final Rounding mode;
    private final boolean saturating;
    private final boolean wrapping;
    private final boolean nanUnderSaturation;
    private final boolean integral;
    private final HybridRule hybrid;

    Converter(Case spec, Semantics semantics, FormatCodec src, FormatCodec dst, HybridRule hybrid) {
        this.spec = spec;
        this.semantics = semantics;
        this.src = src;
        this.dst = dst;
        this.mode = spec.rounding();
        this.saturating = spec.saturation() == Saturation.SAT;
        this.wrapping = spec.saturation() == Saturation.WRAP;
        this.nanUnderSaturation = "ctrl50".equals(dst.format().satNan()) && spec.ctrl().bit(50) == 1;
        this.integral = spec.conversion().sameType();
        this.hybrid = hybrid;
    }

    public Case spec() {
        return spec;
    }

    public Semantics semantics() {
        return semantics;
    }

    public FormatCodec source() {
        return src;
    }

    public FormatCodec destination() {
        return dst;
    }

    /** Converts one bit pattern of the source format; returns the destination's bit pattern. */
    public long apply(long bits) {
        return convert(bits, null);
    }

    /** Converts in[inOffset..inOffset+count) into out[outOffset..). */
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count) {
        for (int i = 0; i < count; i++) {
            out[outOffset + i] = convert(in[inOffset + i], null);
        }
    }

    public void apply(long[] in, long[] out) {
        if (out.length < in.length) {
            throw new IllegalArgumentException("output holds " + out.length + " values, input " + in.length);
        }
        apply(in, 0, out, 0, in.length);
    }

    /** Converts one bit pattern and records how the result came about. */
    public Explanation explain(long bits) {
        Trace trace = new Trace();
        long result = convert(bits, trace);
        return Explanation.of(this, bits & src.mask(), result, trace);
    }

    long convert(long bits, Trace t) {
        Decoded d = src.decode(bits);
        if (t != null) {
            t.decoded = d;
        }
        return switch (d.kind()) {
            case ZERO -> dst.isInteger() ? 0 : dst.zero(d.negative());
            case INFINITE -> infinite(d.negative(), t);
            case NAN -> nan(d, t);
            case FINITE -> dst.isInteger()
                    ? toInteger(d.negative(), d.significand(), d.exponent(), t)
                    : toFloat(d.negative(), d.significand(), d.exponent(), bits, t);
        };
    }

    private long infinite(boolean negative, Trace t) {
        if (dst.isInteger()) {
            note(t, "infinity to an integer gives the " + (negative ? "smallest" : "largest")
                    + " value (Table 3; decision float-to-int-ctrl59)");
            return negative ? dst.integerMin() : dst.integerMax();
        }
        if (saturating) {
            note(t, "saturating: infinity gives the largest finite value (Table 3)");
            return dst.largestFinite(negative);
        }
        return infinity(negative, t);
    }

    private long nan(Decoded d, Trace t) {
        if (dst.isInteger()) {
            note(t, "NaN to an integer gives 0 (Table 1, Table 3)");
            return 0;
        }
        if (saturating && !nanUnderSaturation) {
            note(t, "saturating: NaN gives 0 (Table 3; decision sat-nan-zero)");
            return 0;
        }
        note(t, "NaN stays NaN" + (saturating ? " (CTRL[50]=1)" : "") + "; encoding by decision nan-encoding="
                + Semantics.optionName(semantics.nanEncoding()));
        return dst.nan(d.negative(), d.payload(), semantics.nanEncoding());
    }

    /** Non-saturating infinity; a format without one (fp8_e4m3fn) gives NaN. */
    private long infinity(boolean negative, Trace t) {
        if (dst.hasInfinity()) {
            return dst.infinity(negative);
        }
        note(t, dst.format().name() + " has no infinity: NaN (decision e4m3fn-overflow)");
        return dst.nan(negative, 1L << 63, semantics.nanEncoding());
    }

    private long toFloat(boolean negative, long significand, int exponent, long inputBits, Trace t) {
        int e = exponent + 63 - Long.numberOfLeadingZeros(significand);
        if (e > dst.maxExponent()) {
            note(t, "|x| >= 2^" + (dst.maxExponent() + 1) + ", beyond the largest binade of " + dst.format().name());
            return overflow(negative, true, t);
        }
        int q = dst.quantum(e);
        if (integral && q < 0) {
            q = 0; // same-type conversion: round to an integral value (Table 6)
        }
        int shift = q - exponent;
        long kept;
        boolean half;
        boolean sticky;
        if (shift <= 0) {
            kept = significand << -shift;
            half = false;
            sticky = false;
        } else if (shift < 64) {
            kept = significand >>> shift;
            half = ((significand >>> (shift - 1)) & 1) != 0;
            sticky = (significand & ((1L << (shift - 1)) - 1)) != 0;
        } else {
            kept = 0;
            half = shift == 64 && significand < 0;
            sticky = shift == 64 ? (significand & Long.MAX_VALUE) != 0 : significand != 0;
        }
        if (t != null) {
            t.quantum = q;
            t.kept = kept;
            t.inexact = half || sticky;
        }
        if (!saturating && e == dst.maxExponent() && isDirected()
                && semantics.directedOverflow() == Semantics.DirectedOverflow.INFINITY
                && (kept > dst.maxKept() || (kept == dst.maxKept() && (half || sticky)))) {
            note(t, "|x| > largest finite under " + mode.suffix() + ": infinity (decision directed-overflow=infinity)");
            return infinity(negative, t);
        }
        boolean up = mode == Rounding.RH
                ? hybridRoundsUp(e, kept, half, sticky, significand, shift, inputBits, t)
                : Rounder.increments(mode, negative, kept, half, sticky);
        long rounded = up ? kept + 1 : kept;
        if (rounded == 0) {
            note(t, "rounds to zero");
            return dst.zero(negative);
        }
        if (e == dst.maxExponent()) {
            boolean overflows = rounded > dst.maxKept();
            if (!overflows && mode == Rounding.RH && semantics.hybridBand() == Semantics.HybridBand.TA_THRESHOLD
                    && kept + (half ? 1 : 0) > dst.maxKept()) {
                note(t, "hybrid overflows where ties-away does (decision hr-band=ta-threshold)");
                overflows = true;
            }
            if (overflows) {
                note(t, "rounded value exceeds the largest finite value");
                return overflow(negative, false, t);
            }
        }
        if (semantics.subnormalResults() == Semantics.SubnormalResults.FLUSH
                && q + 63 - Long.numberOfLeadingZeros(rounded) < dst.minExponent()) {
            note(t, "subnormal result flushed to zero (decision subnormal-results=flush)");
            return dst.zero(negative);
        }
        return dst.encode(negative, rounded, q);
    }

    private boolean isDirected() {
        return mode == Rounding.RZ || mode == Rounding.RD || mode == Rounding.RU;
    }

    /** Overflow of a finite value; beyondBinade: |x| reached the binade above the largest finite value. */
    private long overflow(boolean negative, boolean beyondBinade, Trace t) {
        if (saturating) {
            note(t, "saturating overflow gives the largest finite value (Table 3)");
            return dst.largestFinite(negative);
        }
        boolean directedInfinity = semantics.directedOverflow() == Semantics.DirectedOverflow.INFINITY;
        boolean toInfinity = switch (mode) {
            case RN, RNA, RH -> true;
            case RZ -> directedInfinity;
            case RU -> !negative || directedInfinity;
            case RD -> negative || directedInfinity;
            case RO -> semantics.oddOverflow() == Semantics.OddOverflow.INFINITY && beyondBinade;
        };
        if (mode != Rounding.RN && mode != Rounding.RNA && mode != Rounding.RH) {
            note(t, "overflow under " + mode.suffix() + ": decision " + (mode == Rounding.RO ? "odd-overflow="
                    + Semantics.optionName(semantics.oddOverflow()) : "directed-overflow="
                    + Semantics.optionName(semantics.directedOverflow())));
        }
        return toInfinity ? infinity(negative, t) : dst.largestFinite(negative);
    }

    /**
     * CAST_HYBRID into a tapered format (research formats.md 1.4.2): where the input's binade keeps
     * "nearest-away" it is TA; elsewhere the magnitude goes up iff the top discarded bits, read as an
     * unsigned number, are >= a threshold drawn from the input bits (hybrid-rounding.csv).
     */
    private boolean hybridRoundsUp(int e, long kept, boolean half, boolean sticky, long significand, int shift,
                                   long inputBits, Trace t) {
        TaperedRow row = dst.taperedRow(e);
        if (row.hybrid().equals("nearest-away")) {
            note(t, "hybrid: binade " + e + " keeps " + row.mantissaBits() + " mantissa bits, so ties away (tapered.csv "
                    + row.location() + ")");
            return half;
        }
        if (kept == 0 && !half) {
            note(t, "hybrid: below half the smallest denormal, rounds to zero");
            return false;
        }
        if (!half && !sticky && semantics.hybridExact() == Semantics.HybridExact.KEEP) {
            note(t, "hybrid: exact input kept (decision hr-exact=keep)");
            return false;
        }
        int bits = hybrid.compareBits();
        long fractionMask = (1L << bits) - 1;
        long discarded;
        if (shift >= bits) {
            discarded = shift - bits >= 64 ? 0 : (significand >>> (shift - bits)) & fractionMask;
        } else {
            discarded = (significand & ((1L << shift) - 1)) << (bits - shift);
        }
        long threshold = hybrid.threshold(inputBits);
        note(t, "hybrid: top " + bits + " discarded bits 0x" + Long.toHexString(discarded) + (discarded >= threshold
                ? " >= " : " < ") + "threshold 0x" + Long.toHexString(threshold) + " (" + hybrid.threshold()
                + ", " + hybrid.location() + ")");
        return discarded >= threshold;
    }

    private long toInteger(boolean negative, long significand, int exponent, Trace t) {
        long magnitude;
        boolean huge = false;
        if (exponent >= 0) {
            int length = 64 - Long.numberOfLeadingZeros(significand);
            huge = length + exponent > 64;
            magnitude = exponent >= 64 ? 0 : significand << exponent; // low 64 bits when huge
        } else {
            int shift = -exponent;
            long kept;
            boolean half;
            boolean sticky;
            if (shift < 64) {
                kept = significand >>> shift;
                half = ((significand >>> (shift - 1)) & 1) != 0;
                sticky = (significand & ((1L << (shift - 1)) - 1)) != 0;
            } else {
                kept = 0;
                half = shift == 64 && significand < 0;
                sticky = shift == 64 ? (significand & Long.MAX_VALUE) != 0 : significand != 0;
            }
            if (t != null) {
                t.quantum = 0;
                t.kept = kept;
                t.inexact = half || sticky;
            }
            magnitude = Rounder.increments(mode, negative, kept, half, sticky) ? kept + 1 : kept;
        }
        boolean inRange;
        if (huge) {
            inRange = false;
        } else if (dst.format().isSigned()) {
            long limit = negative ? dst.signBit() : dst.integerMax();
            inRange = Long.compareUnsigned(magnitude, limit) <= 0;
        } else {
            inRange = negative ? magnitude == 0 : Long.compareUnsigned(magnitude, dst.integerMax()) <= 0;
        }
        if (inRange || wrapping) {
            if (!inRange) {
                note(t, "out of range: keeps the low " + dst.format().width() + " bits (wrap)");
            }
            return (negative ? -magnitude : magnitude) & dst.mask();
        }
        note(t, "out of range: saturates to the " + (negative ? "smallest" : "largest") + " value");
        return negative ? dst.integerMin() : dst.integerMax();
    }

    private static void note(Trace t, String text) {
        if (t != null) {
            t.notes.add(text);
        }
    }

    /** What a conversion did, collected only when explaining. */
    static final class Trace {
        Decoded decoded;
        Integer quantum;
        long kept;
        boolean inexact;
        final java.util.List<String> notes = new java.util.ArrayList<>();
    }
}
