package convcert.reference;

import convcert.spec.HybridRule;
import convcert.spec.Lane;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.ScaleLane;

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
public final class Converter implements ElementConversion {

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
    /** What a negative value does in a floating destination without a sign; null where it has one. */
    private final NegativeRule negativeRule;
    private final boolean integral;
    private final boolean integerDestination;
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
    private final Operands operands;
    /** Decision e4m3fnuz-clamp=clamp-224: values beyond 224 (and infinities) become 224 before converting. */
    private final boolean clamp224;
    private final SpecialResults results;
    private final HybridRounding hybridRounding;
    private final StochasticRounder stochastic;
    private final IntegerRounding integers;

    Converter(Case spec, Semantics semantics, FormatCodec src, FormatCodec dst, HybridRule hybrid) {
        this.spec = spec;
        this.semantics = semantics;
        this.src = src;
        this.dst = dst;
        this.mode = spec.rounding();
        this.saturating = spec.saturation() == Saturation.SAT;
        this.propagating = spec.saturation() == Saturation.PROPAGATE;
        this.negativeRule = NegativeRule.of(dst, semantics);
        this.belowRange = negativeRule == NegativeRule.BELOW_RANGE;
        this.integral = spec.conversion().integral();
        this.integerDestination = dst.isInteger();
        this.directedToInfinity = !saturating && semantics.get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY
                && (mode == Rounding.RZ || mode == Rounding.RD || mode == Rounding.RU);
        this.flushSubnormals = semantics.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.FLUSH;
        this.hybrid = hybrid;
        this.results = new SpecialResults(spec, semantics, dst, saturating, propagating, belowRange);
        this.maxExponent = dst.maxExponent();
        this.maxKept = dst.maxKept();
        this.roundingTable = mode == Rounding.RH || mode.stochastic() ? 0 : Rounder.table(mode);
        this.evenCodeTies = evenCodeTies(spec, semantics);
        this.randomBits = mode.stochastic() ? spec.conversion().randomBits() : 0;
        Semantics.StochasticRounding stochasticReading = switch (mode) {
            case RS -> semantics.get(Semantics.STOCHASTIC_ROUNDING);
            case RSA -> Semantics.StochasticRounding.STOCHASTIC_A;
            case RSB -> Semantics.StochasticRounding.STOCHASTIC_B;
            case RSC -> Semantics.StochasticRounding.STOCHASTIC_C;
            default -> null;
        };
        this.stochastic = new StochasticRounder(stochasticReading, randomBits, mode, src, dst);
        this.hybridRounding = hybrid == null ? null : new HybridRounding(hybrid, semantics, src, dst);
        this.integers = new IntegerRounding(dst, roundingTable, spec.saturation() == Saturation.WRAP);
        int laneBits = spec.conversion().laneBits(mode);
        ScaleLane scale = spec.conversion().scale();
        this.operands = new Operands(src.format().width(), laneBits, scale != null
                && semantics.get(Semantics.SCALE_ENCODING) == Semantics.ScaleEncoding.E8M0 ? scale.asE8m0() : scale, randomBits);
        this.clamp224 = semantics.get(Semantics.FNUZ_CLAMP) == Semantics.FnuzClamp.CLAMP_224 && dst.fnuz()
                && dst.format().exponentBits() == 4 && dst.format().mantissaBits() == 3;
        this.floatToHalfFast = laneBits == 0 && FloatToHalfFastPath.covers(spec, semantics);
        // A lane (random bits, a scale) sits above each value, the clamp before it: the generic path only.
        this.kernel = floatToHalfFast || laneBits != 0 || clamp224 ? null : Kernel.of(spec, semantics, this);
    }

    /** The lane beside each value: stochastic rounding's random bits, a scale, or null. */
    public Lane lane() {
        return spec.conversion().lane(mode);
    }

    /** How a value and its lane make one operand. */
    @Override
    public Operands operands() {
        return operands;
    }

    /**
     * Stochastic rounding: the top randomBits bits a value discards, where random bits decide its
     * result (a finite, inexact value within the destination's range); -1 elsewhere. Random bits r
     * carry (stochastic-a) iff r >= 2^randomBits minus these: what the generator aims at. A scaled
     * operand's value is taken times its scale (a NaN scale: -1).
     */
    public long discardedBeforeRandom(long bits) {
        ScaleLane lane = operands.scale();
        if (lane != null && lane.isNan(operands.scaleCode(bits))) {
            return -1;
        }
        return stochastic.discardedBefore(bits, operands.scaleExponent(bits));
    }

    /**
     * For CAST_HYBRID: the top discarded bits and the threshold the input would be compared with,
     * or null when the input is not finite or its binade rounds ties-away.
     */
    public long[] hybridComparison(long bits) {
        return hybridRounding == null ? null : hybridRounding.comparison(bits);
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

    @Override
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
    @Override
    public long apply(long bits) {
        return convert(bits, operands.scaleExponent(bits), new Unpacked(), null);
    }

    /**
     * Converts the value of a bit pattern times 2^scale, exactly (no intermediate rounding): how a
     * block-scaled format's elements are made from values and turned back into them.
     */
    @Override
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
        return new long[][] {{results.overflow(false, false, null), results.overflow(false, true, null)},
            {results.overflow(true, false, null), results.overflow(true, true, null)}};
    }

    /**
     * As {@link #apply(long[], int, long[], int, int)}, split over the machine's cores for large batches
     * (exhaustive runs): converters are immutable, so parts run independently and the result is the same.
     */
    public void applyParallel(long[] in, int inOffset, long[] out, int outOffset, int count) {
        Parts.run(count, (from, n) -> apply(in, inOffset + from, out, outOffset + from, n));
    }

    /** As {@link #applyConsecutive} over in[0..count) and out[0..count), split over the cores as applyParallel. */
    public void applyConsecutiveParallel(long first, long[] in, long[] out, int count) {
        Parts.run(count, (from, n) -> applyConsecutive(first + from, in, out, from, n));
    }

    /** The batch conversion without fast paths: what fast paths are checked against. */
    void applyGeneric(long[] in, int inOffset, long[] out, int outOffset, int count) {
        Unpacked scratch = new Unpacked();
        for (int i = 0; i < count; i++) {
            out[outOffset + i] = convert(in[inOffset + i], operands.scaleExponent(in[inOffset + i]), scratch, null);
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
        long result = convert(bits, operands.scaleExponent(bits), new Unpacked(), trace);
        return Explanation.of(this, bits & src.mask(), result, trace);
    }

    private long convert(long bits, int scale, Unpacked d, Trace t) {
        src.unpack(bits, d);
        ScaleLane lane = operands.scale();
        if (lane != null && lane.isNan(operands.scaleCode(bits))) {
            d.set(Decoded.Kind.NAN, d.negative, 0, 0, 0);
            if (t != null) t.note("its scale 0x" + Long.toHexString(operands.scaleCode(bits)) + " is NaN (" + lane
                    + "): the value converts as a NaN of its sign");
        } else if (scale != 0 && d.kind == Decoded.Kind.FINITE) {
            d.exponent += scale;
            if (t != null) t.note("scaled by 2^" + scale + (operands.scale() != null ? " (its scale 0x"
                    + Long.toHexString(operands.scaleCode(bits))
                    + " read as " + operands.scale() + ", applied exactly before the one rounding)" : " (block scale)"));
        }
        if (t != null) {
            t.decoded = d.toDecoded();
        }
        if (clamp224 && (d.kind == Decoded.Kind.INFINITE || d.kind == Decoded.Kind.FINITE && beyond224(d))) {
            if (t != null) t.note("clamped to " + (d.negative ? "-" : "") + "224 first (decision e4m3fnuz-clamp=clamp-224)");
            d.set(Decoded.Kind.FINITE, d.negative, 7, 5, 0); // 224 = 7 x 2^5
        }
        if (negativeRule != null && d.negative && (d.kind == Decoded.Kind.FINITE || d.kind == Decoded.Kind.INFINITE)) {
            if (t != null && negativeRule != NegativeRule.BELOW_RANGE) t.note(negativeRule.note(dst, semantics));
            switch (negativeRule) {
                case BELOW_RANGE -> { // a nonzero result lies below the range
                    return d.kind == Decoded.Kind.FINITE ? toFloat(true, d.significand, d.exponent, bits, t) : results.infinite(true, t);
                }
                case ZERO -> {
                    return dst.zero(false);
                }
                case NAN -> {
                    return results.generatedNan(false, 1L << 63);
                }
                case ABSOLUTE -> d.negative = false;
            }
        }
        if (d.kind == Decoded.Kind.FINITE) {
            return integerDestination ? integers.toInteger(d.negative, d.significand, d.exponent, t)
                    : toFloat(d.negative, d.significand, d.exponent, bits, t);
        }
        return results.special(d, t);
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
        boolean up = hybrid != null ? hybridRounding.roundsUp(e, kept, guard, significand, shift, inputBits, t)
                : randomBits != 0 ? stochastic.roundsUp(significand, shift, operands.random(inputBits), t)
                : (roundingTable >>> Rounder.index(negative, last, guard) & 1) != 0;
        long rounded = up ? kept + 1 : kept;
        if (negative && belowRange && rounded != 0) {
            if (t != null) t.note("rounds to a negative value, below the range of " + dst.format().name()
                    + " (decision p3109-unsigned-negative=below-range)");
            return results.overflow(true, false, t);
        }
        if (rounded == 0 || e == maxExponent || flushSubnormals) {
            return edgeOfRange(negative, e, kept, guard, rounded, q, t);
        }
        return dst.encode(negative, rounded, q);
    }

    private long beyondLargestBinade(boolean negative, Trace t) {
        if (t != null) t.note("|x| >= 2^" + (maxExponent + 1) + ", beyond the largest binade of " + dst.format().name());
        return results.overflow(negative, true, t);
    }

    private long directedInfinity(boolean negative, Trace t) {
        if (t != null) t.note("|x| > largest finite under " + mode.suffix() + ": infinity (decision directed-overflow=infinity)");
        return results.infinity(negative, t);
    }

    /** A rounded value that may be zero, in the largest binade, or subnormal under flushing. */
    private long edgeOfRange(boolean negative, int e, long kept, int guard, long rounded, int q, Trace t) {
        if (rounded == 0) {
            if (t != null) t.note("rounds to zero");
            return dst.zero(negative);
        }
        if (e == maxExponent && overflowsAtTop(kept, guard, rounded, t)) {
            return results.overflow(negative, false, t);
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

}
