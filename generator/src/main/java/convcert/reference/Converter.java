package convcert.reference;

import convcert.spec.HybridRule;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.ScaleLane;
import convcert.spec.Saturation;
import convcert.spec.TaperedRow;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One resolved {@link Case}, ready to convert bit patterns: the bit-exact reference. Every pair runs
 * through the same steps: decode the source, handle zero/infinity/NaN by the saturation behaviour,
 * otherwise round the exact value sign * significand * 2^exponent onto the destination's grid
 * (or to an integer), then handle overflow and encode.
 *
 * <p>The common path (a finite value that neither overflows nor needs a decision) is kept in small
 * methods the JIT inlines; rare cases live in separate methods. Instances are immutable and
 * thread-safe.
 */
public final class Converter {

    private final Case spec;
    private final Semantics semantics;
    private final FormatCodec src;
    private final FormatCodec dst;
    private final Rounding mode;
    private final boolean saturating;
    /** P3109's SatPropagate: finite values clamp, infinities stay where the destination has them. */
    private final boolean propagating;
    /** An unsigned P3109 destination whose negative values are below its range (decision p3109-unsigned-negative). */
    private final boolean belowRange;
    private final boolean p3109Destination;
    /** A fixed-point destination whose negative limit is the two's complement minimum (decision fixed-minimum). */
    private final boolean twosComplementMinimum;
    private final boolean wrapping;
    private final boolean nanUnderSaturation;
    private final boolean integral;
    private final boolean integerDestination;
    private final boolean unsignedDestination;
    private final boolean directedToInfinity;
    private final boolean flushSubnormals;
    private final HybridRule hybrid;
    private final int maxExponent;
    private final long maxKept;
    private final int roundingTable;
    private final boolean evenCodeTies;
    private final boolean floatToHalfFast;
    private final Kernel kernel;
    private final int randomBits;
    private final Semantics.StochasticRounding stochasticReading;
    private final ScaleLane scale;
    private final int laneBits;
    /** Decision e4m3fnuz-clamp=clamp-224: values beyond 224 (and infinities) become 224 before converting. */
    private final boolean clamp224;

    Converter(Case spec, Semantics semantics, FormatCodec src, FormatCodec dst, HybridRule hybrid) {
        this.spec = spec;
        this.semantics = semantics;
        this.src = src;
        this.dst = dst;
        this.mode = spec.rounding();
        this.saturating = spec.saturation() == Saturation.SAT;
        this.wrapping = spec.saturation() == Saturation.WRAP;
        this.propagating = spec.saturation() == Saturation.PROPAGATE;
        this.p3109Destination = dst.layout().p3109();
        this.twosComplementMinimum = dst.layout() == Layout.FIXED
                && semantics.get(Semantics.FIXED_MINIMUM) == Semantics.FixedMinimum.TWOS_COMPLEMENT;
        this.belowRange = dst.layout() == Layout.P3109_UNSIGNED
                && semantics.get(Semantics.P3109_UNSIGNED_NEGATIVE) == Semantics.P3109UnsignedNegative.BELOW_RANGE;
        this.nanUnderSaturation = "nan".equals(dst.format().satNan())
                || (dst.format().satNanBit() != null && spec.ctrl().bit(dst.format().satNanBit()) == 1);
        this.integral = spec.conversion().integral();
        this.integerDestination = dst.isInteger();
        this.unsignedDestination = !dst.isInteger() && !dst.format().isSigned();
        this.directedToInfinity = !saturating && semantics.get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY
                && (mode == Rounding.RZ || mode == Rounding.RD || mode == Rounding.RU);
        this.flushSubnormals = semantics.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.FLUSH;
        this.hybrid = hybrid;
        this.maxExponent = dst.maxExponent();
        this.maxKept = dst.maxKept();
        this.roundingTable = mode == Rounding.RH || mode.stochastic() ? 0 : Rounder.table(mode);
        this.evenCodeTies = evenCodeTies(spec, semantics);
        this.randomBits = mode.stochastic() ? spec.conversion().randomBits() : 0;
        this.stochasticReading = switch (mode) {
            case RS -> semantics.get(Semantics.STOCHASTIC_ROUNDING);
            case RSA -> Semantics.StochasticRounding.STOCHASTIC_A;
            case RSB -> Semantics.StochasticRounding.STOCHASTIC_B;
            case RSC -> Semantics.StochasticRounding.STOCHASTIC_C;
            default -> null;
        };
        this.scale = spec.conversion().scale();
        this.laneBits = spec.conversion().laneBits(mode);
        this.clamp224 = semantics.get(Semantics.FNUZ_CLAMP) == Semantics.FnuzClamp.CLAMP_224 && dst.fnuz()
                && dst.format().exponentBits() == 4 && dst.format().mantissaBits() == 3;
        this.floatToHalfFast = laneBits == 0 && FloatToHalfFastPath.covers(spec, semantics);
        // A lane (random bits, a scale) sits above each value, the clamp before it: the generic path only.
        this.kernel = floatToHalfFast || laneBits != 0 || clamp224 ? null : Kernel.of(spec, semantics, this);
    }

    /** Stochastic rounding's random bits per value (0 in other modes); they are this case's lane. */
    public int randomBits() {
        return randomBits;
    }

    /** A scaled conversion's scale (the case's lane), else null. */
    public ScaleLane scale() {
        return scale;
    }

    /**
     * The lane beside each value: "random" (stochastic rounding's random bits), "scale", or null. A value
     * and its lane are one operand: the value in the source's low bits, the lane's laneBits just above.
     */
    public String lane() {
        return spec.conversion().lane(mode);
    }

    /** The bits of the lane (0 without one). */
    public int laneBits() {
        return laneBits;
    }

    /** The operand of a value and its lane's value (see lane). */
    public long operand(long value, long lane) {
        return value & src.mask() | (laneBits == 0 ? 0 : (lane & ((1L << laneBits) - 1)) << src.format().width());
    }

    /** The bits an operand may have: the source's, and the lane's above them. */
    public long operandMask() {
        int bits = src.format().width() + laneBits;
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** The lane's value in an operand (0 without a lane). */
    public long lane(long operand) {
        return laneBits == 0 ? 0 : operand >>> src.format().width() & ((1L << laneBits) - 1);
    }

    /** The power of two an operand's scale multiplies its value by (0 without a scale). */
    public int scaleExponent(long operand) {
        return scale == null ? 0 : scale.exponent(lane(operand));
    }

    /**
     * Stochastic rounding: the top randomBits bits a value discards, where random bits decide its
     * result (a finite, inexact value within the destination's range); -1 elsewhere. Random bits r
     * carry (stochastic-a) iff r >= 2^randomBits minus these: what the generator aims at.
     */
    public long discardedBeforeRandom(long bits) {
        Unpacked d = src.unpack(bits, new Unpacked());
        if (randomBits == 0 || d.kind != Decoded.Kind.FINITE || integerDestination) {
            return -1;
        }
        int e = d.exponent + 63 - Long.numberOfLeadingZeros(d.significand);
        int shift = e > maxExponent ? 0 : dst.quantum(e) - d.exponent;
        return shift <= 0 || Rounder.guard(d.significand, shift) == 0 ? -1 : Rounder.discarded(d.significand, shift, randomBits);
    }

    /** The random bits of an operand (0 outside stochastic rounding). */
    public long random(long operand) {
        return randomBits == 0 ? 0 : lane(operand);
    }

    /** |d| > 224 = 7 x 2^5 (d finite). */
    private static boolean beyond224(Unpacked d) {
        int binade = d.exponent + 63 - Long.numberOfLeadingZeros(d.significand);
        if (binade != 7) {
            return binade > 7;
        }
        long top = d.significand << Long.numberOfLeadingZeros(d.significand); // 1.xxx at bit 63
        return Long.compareUnsigned(top, 7L << 61) > 0; // 224 = 1.11 x 2^7
    }

    /**
     * Whether rn (a tie) and ro, into a format without mantissa bits, read the code's last bit rather than
     * the significand's, always 1 there (decision exponent-ties): E8M0, and P3109's P = 1 formats, whose
     * draft defines CodeIsEven for P = 1 as IsEven(Q + B).
     */
    static boolean evenCodeTies(Case spec, Semantics semantics) {
        return (spec.rounding() == Rounding.RN || spec.rounding() == Rounding.RO) && Semantics.oneDigit(spec.conversion().to())
                && semantics.get(Semantics.EXPONENT_TIES) == Semantics.ExponentTies.EVEN_CODE;
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

    /** The hybrid-rounding.csv row of an rh case, else null. */
    HybridRule hybridRule() {
        return hybrid;
    }

    public FormatCodec destination() {
        return dst;
    }

    /** The exception flags of this case's conversions (a second lane beside the result). */
    public Flags flags() {
        return new Flags(spec, semantics, src, dst);
    }

    /** Converts one bit pattern of the source format; returns the destination's bit pattern. */
    public long apply(long bits) {
        return convert(bits, scaleExponent(bits), new Unpacked(), null);
    }

    /**
     * Converts the value of a bit pattern times 2^scale, exactly (no intermediate rounding): how a
     * block-scaled format's elements are made from values and turned back into them.
     */
    public long applyScaled(long bits, int scale) {
        return convert(bits, scale, new Unpacked(), null);
    }

    /** Converts in[inOffset..inOffset+count) into out[outOffset..). */
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int count) {
        if (floatToHalfFast) {
            FloatToHalfFastPath.apply(in, inOffset, out, outOffset, count, saturating);
            return;
        }
        if (kernel != null) {
            kernel.apply(in, inOffset, out, outOffset, count, this);
            return;
        }
        applyGeneric(in, inOffset, out, outOffset, count);
    }

    /**
     * As apply over the consecutive bit patterns first, first + 1, ... (an exhaustive run's range),
     * which it also writes to in[offset..+count) for the implementation under test; a kernel may use
     * that they are consecutive.
     */
    public void applyConsecutive(long first, long[] in, long[] out, int offset, int count) {
        for (int i = 0; i < count; i++) {
            in[offset + i] = first + i;
        }
        if (kernel != null && !floatToHalfFast) {
            kernel.applyConsecutive(in, offset, out, offset, count, this);
        } else {
            apply(in, offset, out, offset, count);
        }
    }

    /** Whether batches go through a Kernel. */
    boolean hasKernel() {
        return kernel != null;
    }

    /** The results of overflow (a finite value beyond the destination), [negative][beyond the largest binade]: for the kernels. */
    long[][] overflowCodes() {
        return new long[][] {{overflow(false, false, null), overflow(false, true, null)},
            {overflow(true, false, null), overflow(true, true, null)}};
    }

    /**
     * Whether a case rounds as the kernels can: by Rounder's table (not hybrid), subnormal results kept,
     * and no directed overflow to infinity (that decision looks at the discarded bits in the top binade).
     */
    static boolean tableRounding(Case c, Semantics s) {
        Rounding mode = c.rounding();
        return mode != Rounding.RH && s.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.KEEP
                && !(s.get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY
                        && (mode == Rounding.RZ || mode == Rounding.RU || mode == Rounding.RD));
    }

    /**
     * As {@link #apply(long[], int, long[], int, int)}, split over the machine's cores for large batches
     * (exhaustive runs): converters are immutable, so parts run independently and the result is the same.
     */
    public void applyParallel(long[] in, int inOffset, long[] out, int outOffset, int count) {
        inParts(count, (from, n) -> apply(in, inOffset + from, out, outOffset + from, n));
    }

    /** As {@link #applyConsecutive} over in[0..count) and out[0..count), split over the cores as applyParallel. */
    public void applyConsecutiveParallel(long first, long[] in, long[] out, int count) {
        inParts(count, (from, n) -> applyConsecutive(first + from, in, out, from, n));
    }

    private interface Part {
        void run(int from, int count);
    }

    /** Runs count values as parts of at least PARALLEL_GRAIN values, one per core at most, in parallel. */
    private static void inParts(int count, Part part) {
        int parts = Math.min(Runtime.getRuntime().availableProcessors(), count / PARALLEL_GRAIN);
        if (parts <= 1) {
            part.run(0, count);
            return;
        }
        IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) count * p / parts);
            int to = (int) ((long) count * (p + 1) / parts);
            part.run(from, to - from);
        });
    }

    /** Values per part below which splitting a batch costs more than it saves. */
    private static final int PARALLEL_GRAIN = 1 << 14;

    /** The batch conversion without fast paths: what fast paths are checked against. */
    void applyGeneric(long[] in, int inOffset, long[] out, int outOffset, int count) {
        Unpacked scratch = new Unpacked();
        for (int i = 0; i < count; i++) {
            out[outOffset + i] = convert(in[inOffset + i], scaleExponent(in[inOffset + i]), scratch, null);
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
        long result = convert(bits, scaleExponent(bits), new Unpacked(), trace);
        return Explanation.of(this, bits & src.mask(), result, trace);
    }

    private long convert(long bits, int scale, Unpacked d, Trace t) {
        src.unpack(bits, d);
        if (scale != 0 && d.kind == Decoded.Kind.FINITE) {
            d.exponent += scale;
            if (t != null) t.note("scaled by 2^" + scale + (this.scale != null ? " (its scale 0x" + Long.toHexString(lane(bits))
                    + " read as " + this.scale + ", applied exactly before the one rounding)" : " (block scale)"));
        }
        if (t != null) {
            t.decoded = d.toDecoded();
        }
        if (clamp224 && (d.kind == Decoded.Kind.INFINITE || d.kind == Decoded.Kind.FINITE && beyond224(d))) {
            if (t != null) t.note("clamped to " + (d.negative ? "-" : "") + "224 first (decision e4m3fnuz-clamp=clamp-224)");
            d.set(Decoded.Kind.FINITE, d.negative, 7, 5, 0); // 224 = 7 x 2^5
        }
        if (unsignedDestination && d.negative && (d.kind == Decoded.Kind.FINITE || d.kind == Decoded.Kind.INFINITE)) {
            if (belowRange) { // rounded as a signed value; a nonzero result lies below the range
                return d.kind == Decoded.Kind.FINITE ? toFloat(true, d.significand, d.exponent, bits, t) : infinite(true, t);
            }
            if (dst.layout() == Layout.P3109_UNSIGNED) {
                if (t != null) t.note(dst.format().name() + " has no sign: 0 (decision p3109-unsigned-negative=zero)");
                return dst.zero(false);
            }
            boolean absolute = semantics.get(Semantics.UNSIGNED_NEGATIVE) == Semantics.UnsignedNegative.ABSOLUTE;
            if (t != null) t.note(dst.format().name() + " has no sign: " + (absolute ? "the magnitude is converted" : "NaN")
                    + " (decision unsigned-negative=" + Semantics.optionName(semantics.get(Semantics.UNSIGNED_NEGATIVE)) + ")");
            if (!absolute) {
                return generatedNan(false, 1L << 63);
            }
            d.negative = false;
        }
        if (d.kind == Decoded.Kind.FINITE) {
            return integerDestination ? toInteger(d.negative, d.significand, d.exponent, t)
                    : toFloat(d.negative, d.significand, d.exponent, bits, t);
        }
        return special(d, t);
    }

    private long special(Unpacked d, Trace t) {
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

    private long infinite(boolean negative, Trace t) {
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
            boolean zero = semantics.get(Semantics.FINITE_NAN) == Semantics.FiniteNan.ZERO;
            if (t != null) t.note(dst.format().name() + " has no NaN: " + (zero ? "+0" : "the largest positive value")
                    + " (decision finite-nan=" + Semantics.optionName(semantics.get(Semantics.FINITE_NAN)) + ")");
            return zero ? dst.zero(false) : dst.largestFinite(false);
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
        if (t != null) t.note("NaN stays NaN" + (saturating ? " (CTRL[" + dst.format().satNanBit() + "]=1)" : "") + "; encoding by decision nan-encoding="
                + Semantics.optionName(semantics.get(Semantics.NAN_ENCODING)));
        return generatedNan(negative, payload);
    }

    /** A NaN result by decisions nan-encoding and, for the canonical NaN, default-nan-sign. */
    private long generatedNan(boolean negative, long payload) {
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
    private long infinity(boolean negative, Trace t) {
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

    private long toFloat(boolean negative, long significand, int exponent, long inputBits, Trace t) {
        int e = exponent + 63 - Long.numberOfLeadingZeros(significand);
        if (e > maxExponent) {
            return beyondLargestBinade(negative, t);
        }
        int q = integral ? Math.max(dst.quantum(e), 0) : dst.quantum(e); // same type: round to an integral value
        int shift = q - exponent;
        long kept = shift <= 0 ? significand << -shift : Rounder.kept(significand, shift);
        int guard = shift <= 0 ? 0 : Rounder.guard(significand, shift);
        if (t != null) {
            t.rounding(q, kept, guard);
        }
        if (directedToInfinity && e == maxExponent && (kept > maxKept || (kept == maxKept && guard != 0))) {
            return directedInfinity(negative, t);
        }
        // Without mantissa bits every value keeps 1: the last bit that ties to even is the code's (exponent-ties).
        long last = evenCodeTies && kept == 1 ? q + dst.format().bias() : kept;
        if (t != null && evenCodeTies && kept == 1 && (guard == Rounder.HALF || spec.rounding() == Rounding.RO && guard != 0)) {
            t.note((spec.rounding() == Rounding.RO ? "to odd" : "a tie") + ": the code's last bit decides, "
                    + ((last & 1) == 0 ? "even" : "odd") + " (decision exponent-ties=even-code)");
        }
        boolean up = hybrid != null ? hybridRoundsUp(e, kept, guard, significand, shift, inputBits, t)
                : randomBits != 0 ? stochasticRoundsUp(significand, shift, random(inputBits), t)
                : (roundingTable >>> Rounder.index(negative, last, guard) & 1) != 0;
        long rounded = up ? kept + 1 : kept;
        if (negative && belowRange && rounded != 0) {
            if (t != null) t.note("rounds to a negative value, below the range of " + dst.format().name()
                    + " (decision p3109-unsigned-negative=below-range)");
            return overflow(true, false, t);
        }
        if (rounded == 0 || e == maxExponent || flushSubnormals) {
            return edgeOfRange(negative, e, kept, guard, rounded, q, t);
        }
        return dst.encode(negative, rounded, q);
    }

    private long beyondLargestBinade(boolean negative, Trace t) {
        if (t != null) t.note("|x| >= 2^" + (maxExponent + 1) + ", beyond the largest binade of " + dst.format().name());
        return overflow(negative, true, t);
    }

    private long directedInfinity(boolean negative, Trace t) {
        if (t != null) t.note("|x| > largest finite under " + mode.suffix() + ": infinity (decision directed-overflow=infinity)");
        return infinity(negative, t);
    }

    /** A rounded value that may be zero, in the largest binade, or subnormal under flushing. */
    private long edgeOfRange(boolean negative, int e, long kept, int guard, long rounded, int q, Trace t) {
        if (rounded == 0) {
            if (t != null) t.note("rounds to zero");
            return dst.zero(negative);
        }
        if (e == maxExponent && overflowsAtTop(kept, guard, rounded, t)) {
            return overflow(negative, false, t);
        }
        if (flushSubnormals && q + 63 - Long.numberOfLeadingZeros(rounded) < dst.minExponent()) {
            if (t != null) t.note("subnormal result flushed to zero (decision subnormal-results=flush)");
            return dst.zero(negative);
        }
        return dst.encode(negative, rounded, q);
    }

    /** In the largest binade: does the rounded value exceed the largest finite one? */
    private boolean overflowsAtTop(long kept, int guard, long rounded, Trace t) {
        if (rounded > maxKept) {
            if (t != null) t.note("rounded value exceeds the largest finite value");
            return true;
        }
        if (hybrid != null && semantics.get(Semantics.HYBRID_BAND) == Semantics.HybridBand.TA_THRESHOLD
                && kept + ((guard & Rounder.HALF) != 0 ? 1 : 0) > maxKept) {
            if (t != null) t.note("hybrid overflows where ties-away does (decision hr-band=ta-threshold)");
            return true;
        }
        return false;
    }

    /** Overflow of a finite value; beyondBinade: |x| reached the binade above the largest finite value. */
    private long overflow(boolean negative, boolean beyondBinade, Trace t) {
        if (saturating || propagating) {
            if (t != null) t.note("saturating overflow gives the " + (negative ? "smallest" : "largest") + " finite value");
            return largestFinite(negative);
        }
        boolean directedInfinity = semantics.get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY;
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

    /**
     * CAST_HYBRID into a tapered format (research formats.md 1.4.2): where the input's binade keeps
     * "nearest-away" it is TA; elsewhere the magnitude goes up iff the top discarded bits, read as an
     * unsigned number, are >= a threshold drawn from the input bits (hybrid-rounding.csv).
     */
    private boolean hybridRoundsUp(int e, long kept, int guard, long significand, int shift, long inputBits, Trace t) {
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

    private boolean stochasticRoundsUp(long significand, int shift, long random, Trace t) {
        boolean up = Rounder.stochasticUp(stochasticReading, significand, shift, randomBits, random);
        if (t != null) t.note("stochastic: random bits 0x" + Long.toHexString(random) + " (" + randomBits + ") with the top "
                + randomBits + " discarded bits 0x" + Long.toHexString(shift > 0 ? Rounder.discarded(significand, shift,
                randomBits) : 0) + ": " + (up ? "rounds up" : "truncates") + (mode == Rounding.RS ? " (decision stochastic-rounding="
                + Semantics.optionName(stochasticReading) + ")" : " (" + mode.suffix() + " reads them as "
                + Semantics.optionName(stochasticReading) + ")"));
        return up;
    }

    /**
     * For CAST_HYBRID: the top discarded bits and the threshold the input would be compared with,
     * or null when the input is not finite or its binade rounds ties-away.
     */
    public long[] hybridComparison(long bits) {
        if (hybrid == null) {
            return null;
        }
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

    private long toInteger(boolean negative, long significand, int exponent, Trace t) {
        long magnitude;
        if (exponent >= 0) {
            if (64 - Long.numberOfLeadingZeros(significand) + exponent > 64) {
                // |x| >= 2^64: out of every range; the low 64 bits of the integer are its shifted significand.
                return outOfRange(negative, exponent >= 64 ? 0 : significand << exponent, t);
            }
            magnitude = significand << exponent;
        } else {
            int shift = -exponent;
            long kept = Rounder.kept(significand, shift);
            int guard = Rounder.guard(significand, shift);
            if (t != null) {
                t.rounding(0, kept, guard);
            }
            magnitude = (roundingTable >>> Rounder.index(negative, kept, guard) & 1) != 0 ? kept + 1 : kept;
        }
        boolean inRange = dst.format().isSigned()
                ? Long.compareUnsigned(magnitude, negative ? dst.signBit() : dst.integerMax()) <= 0
                : !negative ? Long.compareUnsigned(magnitude, dst.integerMax()) <= 0 : magnitude == 0;
        return inRange ? (negative ? -magnitude : magnitude) & dst.mask() : outOfRange(negative, magnitude, t);
    }

    /** An integer result outside the destination: keep the low bits (wrap) or saturate. */
    private long outOfRange(boolean negative, long lowBits, Trace t) {
        if (wrapping) {
            if (t != null) t.note("out of range: keeps the low " + dst.format().width() + " bits (wrap)");
            return (negative ? -lowBits : lowBits) & dst.mask();
        }
        if (t != null) t.note("out of range: saturates to the " + (negative ? "smallest" : "largest") + " value");
        return negative ? dst.integerMin() : dst.integerMax();
    }

    /** What a conversion did, collected only when explaining. */
    static final class Trace {
        Decoded decoded;
        Integer quantum;
        long kept;
        boolean inexact;
        final List<String> notes = new ArrayList<>();

        void note(String text) {
            notes.add(text);
        }

        void rounding(int q, long keptPart, int guard) {
            quantum = q;
            kept = keptPart;
            inexact = guard != 0;
        }
    }
}
