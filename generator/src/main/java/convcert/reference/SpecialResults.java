package convcert.reference;

import convcert.spec.Layout;
import convcert.spec.Rounding;

/**
 * The results of a conversion that are not a rounded value, each chosen by the tables and the decisions: a
 * zero, infinite or NaN input, a finite value that overflows, and the largest finite value and generated NaN
 * they resolve to. Split from Converter, whose rounding path calls these on its rare branches.
 */
final class SpecialResults {

    private final Case spec;
    private final Semantics semantics;
    private final FormatCodec dst;
    private final Rounding mode;
    private final boolean saturating;
    /** P3109's SatPropagate: finite values clamp, infinities stay where the destination has them. */
    private final boolean propagating;
    /** An unsigned P3109 destination whose negative values are below its range (decision p3109-unsigned-negative). */
    private final boolean belowRange;
    private final boolean integerDestination;
    private final boolean p3109Destination;
    /** A fixed-point destination whose negative limit is the two's complement minimum (decision fixed-minimum). */
    private final boolean twosComplementMinimum;
    private final boolean nanUnderSaturation;

    SpecialResults(Case spec, Semantics semantics, FormatCodec dst, boolean saturating, boolean propagating, boolean belowRange) {
        this.spec = spec;
        this.semantics = semantics;
        this.dst = dst;
        this.mode = spec.rounding();
        this.saturating = saturating;
        this.propagating = propagating;
        this.belowRange = belowRange;
        this.integerDestination = dst.isInteger();
        this.p3109Destination = dst.layout().p3109();
        this.twosComplementMinimum = dst.layout() == Layout.FIXED
                && semantics.get(Semantics.FIXED_MINIMUM) == Semantics.FixedMinimum.TWOS_COMPLEMENT;
        this.nanUnderSaturation = "nan".equals(dst.format().satNan())
                || (dst.format().satNanBit() != null && spec.ctrl().bit(dst.format().satNanBit()) == 1);
    }

    long special(Unpacked d, Trace t) {
        return switch (d.kind) {
            case ZERO -> integerDestination ? 0 : dst.layout() == Layout.EXPONENT ? unsignedZero(t) : dst.zero(d.negative);
            case INFINITE -> infinite(d.negative, t);
            case NAN -> nan(d.negative, d.payload, t);
            case FINITE -> throw new IllegalStateException();
        };
    }

    /** A zero into a format without one (E8M0): its smallest value or NaN, by decision exponent-zero. */
    private long unsignedZero(Trace t) {
        boolean nan = semantics.get(Semantics.EXPONENT_ZERO) == Semantics.ExponentZero.NAN;
        if (t != null) t.note(dst.format().name() + " has no zero: " + (nan ? "NaN" : "its smallest value")
                + " (decision exponent-zero=" + Semantics.optionName(semantics.get(Semantics.EXPONENT_ZERO)) + ")");
        return nan ? dst.format().nan() : dst.zero(false);
    }

    long infinite(boolean negative, Trace t) {
        if (integerDestination) {
            if (t != null) t.note("infinity to an integer gives the " + (negative ? "smallest" : "largest")
                    + " value (Table 3; decision float-to-int-ctrl59)");
            return negative ? dst.integerMin() : dst.integerMax();
        }
        if (saturating && semantics.get(Semantics.SAT_INFINITY) == Semantics.SatInfinity.LARGEST_FINITE) {
            if (t != null) t.note("saturating: infinity gives the " + (negative ? "smallest" : "largest") + " finite value");
            return largestFinite(negative);
        }
        if (propagating) {
            boolean kept = dst.hasInfinity(negative);
            if (t != null) t.note("SatPropagate: " + (kept ? "the infinity stays" : dst.format().name() + " has no "
                    + (negative ? "-" : "+") + "infinity: its " + (negative ? "smallest" : "largest") + " finite value"));
            return kept ? dst.infinity(negative) : largestFinite(negative);
        }
        if (saturating && t != null) {
            t.note("saturation clamps finite values only: infinity converts as without it (decision sat-infinity=propagate)");
        }
        return infinity(negative, t);
    }

    private long nan(boolean negative, long payload, Trace t) {
        if (!integerDestination && !dst.hasNan()) {
            Semantics.FiniteNan rule = semantics.get(Semantics.FINITE_NAN);
            if (t != null) t.note(dst.format().name() + " has no NaN: " + switch (rule) {
                case ZERO -> "+0";
                case LARGEST_POSITIVE -> "the largest positive value";
                case LARGEST_SIGNED -> "the largest value of the NaN's sign";
            } + " (decision finite-nan=" + Semantics.optionName(rule) + ")");
            return switch (rule) {
                case ZERO -> dst.zero(false);
                case LARGEST_POSITIVE -> dst.largestFinite(false);
                case LARGEST_SIGNED -> dst.largestFinite(negative);
            };
        }
        if (integerDestination) {
            long bits = spec.conversion().integerNan();
            if (t != null) t.note("NaN to an integer gives " + dst.format().hex(bits) + (spec.conversion().nanResult() != null
                    ? " (conversions.csv nan_result)" : " (formats.csv from_nan)"));
            return bits;
        }
        if (saturating && !nanUnderSaturation) {
            if (t != null) t.note("saturating: NaN gives 0 (Table 3; decision sat-nan-zero)");
            return 0;
        }
        if (t != null) t.note("NaN stays NaN" + (saturating ? " (CTRL[" + dst.format().satNanBit() + "]=1)" : "")
                + "; encoding by decision nan-encoding="
                + Semantics.optionName(semantics.get(Semantics.NAN_ENCODING)));
        return generatedNan(negative, payload);
    }

    /** A NaN result by decisions nan-encoding and, for the canonical NaN, default-nan-sign. */
    long generatedNan(boolean negative, long payload) {
        Semantics.NanEncoding encoding = semantics.get(Semantics.NAN_ENCODING);
        if (encoding == Semantics.NanEncoding.CANONICAL && semantics.get(Semantics.DEFAULT_NAN_SIGN) == Semantics.DefaultNanSign.NEGATIVE) {
            return dst.signedNan(true);
        }
        return dst.nan(negative, payload, encoding);
    }

    /**
     * The finite value nearest an overflow of this sign: the largest of its sign, or, below an unsigned P3109
     * format's range, its smallest, 0.
     */
    private long largestFinite(boolean negative) {
        if (negative && twosComplementMinimum) {
            return dst.signBit(); // -2^(width-1) x the quantum: 0x80, -2.0, for OCP MX INT8
        }
        return negative && belowRange ? dst.zero(false) : dst.largestFinite(negative);
    }

    /** Non-saturating infinity; a format without one gives NaN (fp8_e4m3fn), or its largest value when finite only. */
    long infinity(boolean negative, Trace t) {
        if (dst.hasInfinity(negative)) {
            return dst.infinity(negative);
        }
        if (!dst.hasNan()) {
            if (t != null) t.note(dst.format().name() + " has neither infinity nor NaN: the largest value of that sign");
            return largestFinite(negative);
        }
        if (semantics.get(Semantics.OVERFLOW_NAN) == Semantics.OverflowNan.SIGNED) {
            if (t != null) t.note(dst.format().name() + " has no infinity: the NaN of the value's sign (decision overflow-nan=signed)");
            return dst.signedNan(negative);
        }
        if (t != null) t.note(dst.format().name() + (dst.hasInfinity() ? " has no -infinity: NaN" : " has no infinity: NaN")
                + (p3109Destination ? " (P3109: its one NaN)" : " (decision e4m3fn-overflow)"));
        return generatedNan(negative, 1L << 63);
    }

    /** Overflow of a finite value; beyondBinade: |x| reached the binade above the largest finite value. */
    long overflow(boolean negative, boolean beyondBinade, Trace t) {
        if (saturating || propagating) {
            if (t != null) t.note("saturating overflow gives the " + (negative ? "smallest" : "largest") + " finite value");
            return largestFinite(negative);
        }
        // Reached only when the rounded value lies beyond the largest finite one (or |x| beyond its binade), so
        // both infinity readings give infinity here; INFINITY's values that round back within are the Converter's.
        boolean directedInfinity = semantics.get(Semantics.DIRECTED_OVERFLOW) != Semantics.DirectedOverflow.LARGEST_FINITE;
        boolean toInfinity = switch (mode) {
            case RN, RNA, RH, RS, RSA, RSB, RSC -> true;
            case RZ -> directedInfinity;
            case RU -> !negative || directedInfinity;
            case RD -> negative || directedInfinity;
            // P3109's Saturate (SatNone): ToOdd clamps a positive overflow of an unsigned extended format only
            case RO -> p3109Destination ? negative || dst.format().isSigned() || !dst.hasInfinity()
                    : semantics.get(Semantics.ODD_OVERFLOW) == Semantics.OddOverflow.INFINITY && beyondBinade;
        };
        if (t != null && mode == Rounding.RO && p3109Destination) {
            t.note("overflow under ro: P3109's Saturate table for a " + (dst.format().isSigned() ? "signed" : "unsigned")
                    + (dst.hasInfinity() ? " extended" : " finite") + " format");
        } else if (t != null && mode != Rounding.RN && mode != Rounding.RNA && mode != Rounding.RH) {
            t.note("overflow under " + mode.suffix() + ": decision " + (mode == Rounding.RO ? "odd-overflow="
                    + Semantics.optionName(semantics.get(Semantics.ODD_OVERFLOW)) : "directed-overflow="
                    + Semantics.optionName(semantics.get(Semantics.DIRECTED_OVERFLOW))));
        }
        return toInfinity ? infinity(negative, t) : largestFinite(negative);
    }
}
