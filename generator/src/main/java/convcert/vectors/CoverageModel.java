package convcert.vectors;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.reference.Values;
import convcert.spec.Conversion;
import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.ScaleLane;
import convcert.spec.TaperedRow;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Turns coverage.csv into the inputs of one (source, destination) pair: the points where
 * conversions go wrong (specials, bounds, ties, overflow thresholds, hybrid comparisons), then seeded
 * random values, then, for small sources, everything. generator/COVERAGE.md describes each tag.
 * The same inputs serve every rounding mode and saturation state of the pair.
 */
public final class CoverageModel {

    static final List<String> KNOWN_TAGS = List.of("zero", "special", "source-bounds", "overflow", "integer-bounds",
            "grid", "sticky", "half-integers", "hybrid-compare", "random-bits", "random-log", "exhaustive", "carry",
            "random-operand", "scale-edge", "scale-operand");

    /** Tags of a lane beside each value (random bits, a scale), applied by operands, not inputs. */
    private static final List<String> OPERAND_TAGS = List.of("carry", "random-operand", "scale-edge", "scale-operand");

    private final Reference reference;
    private final List<CoverageTag> tags;
    private final Level level;
    private final long seed;

    public CoverageModel(Reference reference, List<CoverageTag> tags, Level level, long seed) {
        this.reference = reference;
        this.tags = tags;
        this.level = level;
        this.seed = seed;
    }

    public List<CoverageTag> tags() {
        return tags;
    }

    public TaggedInputs inputs(Conversion c) {
        Pair p = new Pair(c);
        boolean exhaustive = tags.stream().anyMatch(t -> t.tag().equals("exhaustive") && c.from().width() <= t.at(level));
        for (CoverageTag tag : tags) {
            int n = tag.at(level);
            if (n <= 0 || (exhaustive && tag.tag().startsWith("random-")) || OPERAND_TAGS.contains(tag.tag())) {
                continue; // random inputs only where the source is too wide to enumerate
            }
            SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + tag.tag().hashCode()));
            switch (tag.tag()) {
                case "zero" -> p.zero();
                case "special" -> p.special();
                case "source-bounds" -> p.sourceBounds();
                case "overflow" -> p.overflow();
                case "integer-bounds" -> p.integerBounds();
                case "grid" -> p.grid(n);
                case "sticky" -> p.sticky();
                case "half-integers" -> p.halfIntegers(n);
                case "hybrid-compare" -> p.hybridCompare(n, random);
                case "random-bits" -> p.randomBits(n, random);
                case "random-log" -> p.randomLog(n, random);
                case "exhaustive" -> p.exhaustive(n);
                default -> throw new IllegalStateException(tag.tag());
            }
            p.tag = null;
        }
        return p.inputs;
    }

    /** The operands of a case with a lane beside each value (converter.lane() not null): its inputs with lane values. */
    public TaggedInputs operands(Conversion c, Converter converter, TaggedInputs inputs) {
        return converter.operands().scale() != null ? scaleOperands(c, converter, inputs) : stochasticOperands(c, converter, inputs);
    }

    private int atLevel(String tag) {
        return tags.stream().filter(t -> t.tag().equals(tag)).mapToInt(t -> t.at(level)).findFirst().orElse(0);
    }

    /**
     * A scaled conversion's operands: each input with the scale 0 (under its own tag) and the lane's
     * smallest and largest; for finite inputs also the scales that move the value's binade to the
     * destination's edges (tag scale-edge: its top binade and the one above, the smallest normal binade
     * and the one below, the smallest subnormal's binade and the two below, where rounding meets the
     * range: what separates one exact rounding from rounding before or after scaling), and seeded
     * random ones (tag scale-operand, that many per input). An enumerated source whose value and scale
     * fit 16 bits together takes every scale instead.
     */
    private TaggedInputs scaleOperands(Conversion c, Converter converter, TaggedInputs inputs) {
        ScaleLane lane = converter.operands().scale();
        FormatCodec dst = converter.destination();
        TaggedInputs operands = new TaggedInputs(converter.operands().mask());
        boolean edges = atLevel("scale-edge") > 0;
        int draws = atLevel("scale-operand");
        SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + "scale-operand".hashCode()));
        int smallest = dst.quantum(dst.minExponent());
        int[] targets = {dst.maxExponent(), dst.maxExponent() + 1, dst.minExponent(), dst.minExponent() - 1, smallest,
            smallest - 1, smallest - 2};
        long[] bits = inputs.bits();
        String[] tag = inputs.tags();
        // An enumerated source whose values and scales together fit 16 bits (FP8 widening): every pair.
        boolean everyScale = c.from().width() <= atLevel("exhaustive") && c.from().width() + lane.bits() <= 16;
        for (int i = 0; i < bits.length; i++) {
            if (everyScale) {
                for (long code = 0; code < 1L << lane.bits(); code++) {
                    operands.add(converter.operands().operand(bits[i], code), tag[i]);
                }
                continue;
            }
            operands.add(converter.operands().operand(bits[i], 0), tag[i]);
            operands.add(converter.operands().operand(bits[i], lane.code(lane.min())), tag[i]);
            operands.add(converter.operands().operand(bits[i], lane.code(lane.max())), tag[i]);
            Decoded x = converter.source().decode(bits[i]);
            if (edges && x.kind() == Decoded.Kind.FINITE) {
                for (int target : targets) {
                    long k = lane.divides() ? x.binade() - (long) target : target - (long) x.binade();
                    if (k >= lane.min() && k <= lane.max()) {
                        operands.add(converter.operands().operand(bits[i], lane.code(k)), "scale-edge");
                    }
                }
            }
            for (int k = 0; k < draws; k++) {
                operands.add(converter.operands().operand(bits[i], random.nextLong(1L << lane.bits())), "scale-operand");
            }
        }
        return operands;
    }

    /**
     * Stochastic rounding's operands (converter.operands().randomBits() > 0): each input with the random bits 0
     * and all ones (under the input's own tag); where random bits decide its result, also at its carry
     * boundary, the least random bits that carry and one less (tag carry), and seeded random ones
     * (tag random-operand, that many per input).
     */
    private TaggedInputs stochasticOperands(Conversion c, Converter converter, TaggedInputs inputs) {
        long full = 1L << converter.operands().randomBits();
        TaggedInputs operands = new TaggedInputs(converter.operands().mask());
        boolean carry = tags.stream().anyMatch(t -> t.tag().equals("carry") && t.at(level) > 0);
        int draws = atLevel("random-operand");
        SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + "random-operand".hashCode()));
        long[] bits = inputs.bits();
        String[] tag = inputs.tags();
        for (int i = 0; i < bits.length; i++) {
            operands.add(converter.operands().operand(bits[i], 0), tag[i]);
            operands.add(converter.operands().operand(bits[i], full - 1), tag[i]);
            long discarded = converter.discardedBeforeRandom(bits[i]);
            if (discarded < 0) {
                continue;
            }
            if (carry && discarded > 0) {
                operands.add(converter.operands().operand(bits[i], full - discarded), "carry");
                operands.add(converter.operands().operand(bits[i], full - discarded - 1), "carry");
            }
            for (int k = 0; k < draws; k++) {
                operands.add(converter.operands().operand(bits[i], random.nextLong(full)), "random-operand");
            }
        }
        return operands;
    }

    /** Generation state for one pair. */
    private final class Pair {
        final Conversion c;
        final Format s;
        final Format d;
        final FormatCodec sc;
        final FormatCodec dc;
        final TaggedInputs inputs;
        final SourceGrid grid;
        final BigDecimal sourceMax;
        String tag;

        Pair(Conversion c) {
            this.c = c;
            this.s = c.from();
            this.d = c.to();
            this.sc = reference.codec(s);
            this.dc = reference.codec(d);
            this.inputs = new TaggedInputs(s.mask());
            this.grid = s.isInteger() ? null : new SourceGrid(sc);
            this.sourceMax = value(sc, s.maxFinite());
        }

        private void add(long bits, String name) {
            inputs.add(bits, name);
        }

        private void both(long bits, String name) {
            add(bits, name);
            if (!s.isInteger()) {
                add(bits ^ sc.signBit(), name);
            }
        }

        void zero() {
            if (!s.isInteger() && s.layout() != Layout.EXPONENT) { // E8M0 has no zero
                both(0, "zero");
            }
        }

        void special() {
            if (s.isInteger()) {
                return;
            }
            if (s.inf() != null) {
                both(s.inf(), "special");
            }
            if (s.hasNan()) {
                both(s.nan(), "special");
            }
            if (s.layout() == Layout.IEEE) {
                int m = s.mantissaBits();
                long quiet = 1L << (m - 1);
                long all = (1L << m) - 1;
                long exponent = s.inf();
                for (long payload : new long[] {quiet | 1, all, 1, all ^ quiet}) {
                    both(exponent | payload, "special");
                }
            }
        }

        void sourceBounds() {
            if (s.isInteger()) {
                BigInteger min = integerMin(s);
                BigInteger max = integerMax(s);
                for (BigInteger k : List.of(min, min.add(BigInteger.ONE), BigInteger.ONE.negate(), BigInteger.ZERO,
                        BigInteger.ONE, max.subtract(BigInteger.ONE), max)) {
                    if (k.compareTo(min) >= 0 && k.compareTo(max) <= 0) {
                        add(k.longValue(), "source-bounds");
                    }
                }
                return;
            }
            List<Long> codes = positiveFiniteCodes(sc);
            both(codes.getFirst(), "source-bounds");
            both(codes.getLast(), "source-bounds");
            if (s.layout() != Layout.TAPERED) {
                long mantissa = (1L << s.mantissaBits()) - 1;
                both(mantissa, "source-bounds"); // largest subnormal
                both(mantissa + 1, "source-bounds"); // smallest normal
            }
        }

        void overflow() {
            if (d.isInteger()) {
                return;
            }
            BigDecimal max = value(dc, d.maxFinite());
            BigDecimal next = Values.exact(false, dc.maxKept() + 1, dc.quantum(dc.maxExponent()));
            for (BigDecimal t : List.of(max, max.add(next).divide(BigDecimal.TWO), next)) {
                near(t, "overflow");
            }
        }

        void integerBounds() {
            if (!d.isInteger()) {
                return;
            }
            BigInteger min = integerMin(d);
            BigInteger max = integerMax(d);
            BigDecimal half = new BigDecimal("0.5");
            for (BigInteger k : List.of(min.subtract(BigInteger.ONE), min, min.add(BigInteger.ONE), BigInteger.ONE.negate(),
                    BigInteger.ZERO, BigInteger.ONE, max.subtract(BigInteger.ONE), max, max.add(BigInteger.ONE))) {
                BigDecimal v = new BigDecimal(k);
                near(v, "integer-bounds");
                near(v.subtract(half), "integer-bounds");
                near(v.add(half), "integer-bounds");
            }
        }

        void grid(int cap) {
            if (d.isInteger() || c.integral() || (!s.isInteger() && d.width() > s.width())) {
                return; // integers and same-type rounding: see half-integers; widening float pairs are exact
            }
            List<Long> codes = positiveFiniteCodes(dc);
            List<BigDecimal> values = codes.stream().map(code -> value(dc, code)).toList();
            List<Integer> edges = new ArrayList<>();
            for (int i = 0; i < codes.size(); i++) {
                int binade = dc.decode(codes.get(i)).binade();
                if (i == 0 || i == codes.size() - 1 || dc.decode(codes.get(i - 1)).binade() != binade
                        || dc.decode(codes.get(i + 1)).binade() != binade) {
                    edges.add(i);
                }
            }
            TreeSet<Integer> chosen = new TreeSet<>(spread(edges, cap / 2));
            List<Integer> all = IntStream.range(0, codes.size()).boxed().toList();
            chosen.addAll(spread(all, cap - chosen.size()));
            BigDecimal next = Values.exact(false, dc.maxKept() + 1, dc.quantum(dc.maxExponent()));
            near(values.getFirst().divide(BigDecimal.TWO), "grid"); // the tie between zero and the smallest value
            for (int i : chosen) {
                BigDecimal v = values.get(i);
                if (v.compareTo(sourceMax) > 0) {
                    break;
                }
                BigDecimal w = i + 1 < values.size() ? values.get(i + 1) : next;
                near(v, "grid");
                near(v.add(w).divide(BigDecimal.TWO), "grid");
            }
        }

        /**
         * Sticky-bit coverage: between two neighbours v < w of the destination (w - v is one quantum
         * q), the source values v + g*q/2 + 2^k*ulp for every bit k below the guard bit, g = 0 and 1.
         * Spans: near 1 and at the bottom of the destination (subnormal results) for float sources;
         * 2..3 and 3..4 for integer destinations; the top of the source's range for integer sources.
         */
        void sticky() {
            if (s.layout() == Layout.TAPERED || (s.isInteger() && d.isInteger())) {
                return;
            }
            List<BigDecimal> points = new ArrayList<>();
            if (d.isInteger()) {
                points.addAll(List.of(BigDecimal.valueOf(2), BigDecimal.valueOf(3), BigDecimal.valueOf(4)));
            } else {
                List<BigDecimal> values = d.width() <= 16
                        ? positiveFiniteCodes(dc).stream().map(code -> value(dc, code)).toList()
                        : wideNeighbours(); // IEEE: consecutive codes are neighbours
                if (s.isInteger() && d.width() > 16) {
                    int top = sourceMax.toBigInteger().bitLength() - 1; // 2^top: the source's top binade
                    BigDecimal v0 = new BigDecimal(BigInteger.ONE.shiftLeft(top));
                    BigDecimal q = top > d.mantissaBits() ? new BigDecimal(BigInteger.ONE.shiftLeft(top - d.mantissaBits()))
                            : BigDecimal.ONE;
                    points.addAll(List.of(v0, v0.add(q), v0.add(q).add(q)));
                } else if (s.isInteger()) {
                    List<BigDecimal> inRange = values.stream().filter(v -> v.compareTo(sourceMax) <= 0).toList();
                    points.addAll(inRange.subList(Math.max(0, inRange.size() - 3), inRange.size()));
                } else {
                    points.addAll(values.subList(0, Math.min(3, values.size())));
                    int one = values.indexOf(values.stream().filter(v -> v.compareTo(BigDecimal.ONE) == 0).findFirst()
                            .orElse(values.get(values.size() / 2)));
                    points.addAll(values.subList(one, Math.min(one + 3, values.size())));
                }
            }
            for (int i = 0; i + 1 < points.size(); i++) {
                stickySpan(points.get(i), points.get(i + 1));
            }
        }

        /** For a wide IEEE destination: the three smallest values, three from 1 up, and its three largest. */
        private List<BigDecimal> wideNeighbours() {
            long one = (long) d.bias() << d.mantissaBits();
            List<BigDecimal> values = new ArrayList<>();
            for (long code : new long[] {1, 2, 3, one, one + 1, one + 2, d.maxFinite() - 2, d.maxFinite() - 1, d.maxFinite()}) {
                values.add(value(dc, code));
            }
            return values;
        }

        private void stickySpan(BigDecimal v, BigDecimal w) {
            if (s.isInteger()) {
                BigInteger lo = v.toBigInteger();
                BigInteger quantum = w.toBigInteger().subtract(lo);
                int bits = quantum.bitLength() - 1;
                if (quantum.bitCount() != 1 || bits < 2 || w.compareTo(sourceMax) > 0) {
                    return;
                }
                for (int guard = 0; guard <= 1; guard++) {
                    for (int k = 0; k < bits - 1; k++) {
                        BigInteger x = lo.add(BigInteger.valueOf(guard).shiftLeft(bits - 1)).add(BigInteger.ONE.shiftLeft(k));
                        add(x.longValue(), "sticky");
                        if (s.isSigned()) {
                            add(x.negate().longValue(), "sticky");
                        }
                    }
                }
                return;
            }
            Long lo = exactSource(v);
            Long hi = exactSource(w);
            if (lo == null || hi == null || Long.bitCount(hi - lo) != 1 || hi - lo < 4) {
                return; // no bit below the guard bit in this span
            }
            int bits = Long.numberOfTrailingZeros(hi - lo);
            for (int guard = 0; guard <= 1; guard++) {
                for (int k = 0; k < bits - 1; k++) {
                    both(lo + ((long) guard << (bits - 1)) + (1L << k), "sticky");
                }
            }
        }

        /** The source's code of t when the source holds t exactly, else null. */
        private Long exactSource(BigDecimal t) {
            if (!isDouble(t)) {
                return null;
            }
            long[] around = grid.around(Math.abs(t.doubleValue()));
            return around[0] == around[1] ? around[0] : null;
        }

        void halfIntegers(int cap) {
            if (!(d.isInteger() || c.integral()) || s.isInteger()) {
                return;
            }
            // Half-integers exist in the source below 2^(precision - 1); stop there or at the destination's range.
            BigInteger limit = BigInteger.ONE.shiftLeft(s.layout() == Layout.TAPERED ? 3 : s.mantissaBits())
                    .min(sourceMax.toBigInteger());
            if (d.isInteger()) {
                limit = limit.min(integerMax(d).add(BigInteger.ONE));
            }
            BigDecimal half = new BigDecimal("0.5");
            long stride = Math.max(1, limit.divide(BigInteger.valueOf(cap)).longValue());
            for (long k = 0; BigInteger.valueOf(k).compareTo(limit) < 0; k += k < 32 ? 1 : stride) {
                near(BigDecimal.valueOf(k), "half-integers");
                near(BigDecimal.valueOf(k).add(half), "half-integers");
            }
        }

        void hybridCompare(int perBinade, SplittableRandom random) {
            if (d.layout() != Layout.TAPERED || reference.tables().hybridRule(s) == null || grid == null) {
                return;
            }
            Converter hybrid = reference.unlisted(s, d, Rounding.RH);
            for (int e = dc.minExponent() - 1; e <= dc.maxExponent(); e++) {
                TaperedRow row = dc.taperedRow(e);
                if (!row.hybrid().equals("compare")) {
                    continue;
                }
                int found = 0;
                for (int attempt = 0; attempt < 200_000 && found < perBinade; attempt++) {
                    double x = Math.scalb(1 + random.nextDouble(), e);
                    long bits = grid.around(x)[0];
                    long[] comparison = hybrid.hybridComparison(bits);
                    if (comparison != null && Math.abs(comparison[0] - comparison[1]) <= 1) {
                        add(random.nextBoolean() ? bits : bits ^ sc.signBit(), "hybrid-compare");
                        found++;
                    }
                }
            }
        }

        void randomBits(int count, SplittableRandom random) {
            for (int i = 0; i < count; i++) {
                add(random.nextLong(), "random-bits");
            }
        }

        void randomLog(int count, SplittableRandom random) {
            for (int i = 0; i < count; i++) {
                long bits;
                if (s.isInteger()) {
                    int length = random.nextInt(s.width() + (s.isSigned() ? 0 : 1)); // uniform bit length
                    bits = length == 0 ? 0 : random.nextLong() >>> (64 - length);
                    if (s.isSigned() && random.nextBoolean()) {
                        bits = -bits;
                    }
                } else if (s.layout() == Layout.TAPERED) {
                    bits = random.nextLong();
                } else {
                    long exponent = random.nextLong(1L << s.exponentBits());
                    bits = (random.nextBoolean() ? sc.signBit() : 0) | exponent << s.mantissaBits()
                            | (random.nextLong() & ((1L << s.mantissaBits()) - 1));
                }
                add(bits, "random-log");
            }
        }

        void exhaustive(int maxBits) {
            if (s.width() <= maxBits) {
                for (long bits = 0; bits < (1L << s.width()); bits++) {
                    add(bits, "exhaustive");
                }
            }
        }

        /** The source's values nearest to t (and one ulp either side when t is exact), both signs. */
        private void near(BigDecimal t, String name) {
            if (s.isInteger()) {
                BigInteger min = integerMin(s);
                BigInteger max = integerMax(s);
                for (BigDecimal signed : List.of(t, t.negate())) {
                    BigInteger lo = signed.setScale(0, RoundingMode.FLOOR).toBigInteger();
                    BigInteger hi = signed.setScale(0, RoundingMode.CEILING).toBigInteger();
                    List<BigInteger> points = new ArrayList<>(List.of(lo, hi));
                    if (lo.equals(hi)) {
                        points.add(lo.subtract(BigInteger.ONE));
                        points.add(lo.add(BigInteger.ONE));
                    }
                    for (BigInteger k : points) {
                        if (k.compareTo(min) >= 0 && k.compareTo(max) <= 0) {
                            add(k.longValue(), name);
                        }
                    }
                }
                return;
            }
            if (!isDouble(t)) {
                return; // points are placed at binary64 precision (the committed golden sets depend on it)
            }
            long[] around = grid.around(Math.abs(t.doubleValue()));
            long lo = around[0];
            long hi = around[1];
            both(lo, name);
            both(hi, name);
            if (lo == hi && s.layout() != Layout.TAPERED) {
                if (lo > 0) {
                    both(lo - 1, name);
                }
                if (lo < s.maxFinite()) {
                    both(lo + 1, name);
                }
            }
        }
    }

    private static boolean isDouble(BigDecimal t) {
        double x = t.doubleValue();
        return !Double.isInfinite(x) && new BigDecimal(x).compareTo(t) == 0;
    }

    /**
     * A floating source's codes around a value, through its codec alone: the largest code at or below
     * t (rounding down, 0 below the smallest) and the smallest at or above it (rounding up; beyond
     * the largest finite value, the code a non-saturating conversion gives: infinity, else NaN, else
     * the largest value). Narrow formats (tapered ones too) search their codes sorted by value; wide
     * IEEE layouts search the code space, whose positive half is in value order. Values are compared
     * as doubles, which hold every value of these formats (at most 53 significant bits) exactly.
     */
    static final class SourceGrid {
        private final FormatCodec codec;
        private final long[] sorted; // narrow formats: positive finite codes in value order
        private final double[] values;

        SourceGrid(FormatCodec codec) {
            this.codec = codec;
            if (codec.format().width() <= 16) {
                List<long[]> codes = new ArrayList<>();
                for (long code = 0; code < positiveCodes(codec); code++) {
                    if (codec.decode(code).kind() == Decoded.Kind.FINITE) {
                        codes.add(new long[] {code});
                    }
                }
                codes.sort(Comparator.comparingDouble(c -> valueOf(c[0])));
                sorted = codes.stream().mapToLong(c -> c[0]).toArray();
                values = Arrays.stream(sorted).mapToDouble(this::valueOf).toArray();
            } else {
                sorted = null;
                values = null;
            }
        }

        private double valueOf(long code) {
            Decoded d = codec.decode(code);
            return Math.scalb((double) d.significand(), d.exponent());
        }

        /** {round down, round up} of t >= 0 as codes. */
        long[] around(double t) {
            if (t == 0) {
                return new long[] {0, 0};
            }
            Format f = codec.format();
            long beyond = f.inf() != null ? f.inf() : f.hasNan() ? f.nan() : f.maxFinite();
            long first = sorted != null ? 0 : 1;
            long last = sorted != null ? sorted.length - 1 : f.maxFinite();
            long lowIndex = -1; // the largest index whose value <= t
            long lo = first;
            long hi = last;
            while (lo <= hi) {
                long mid = (lo + hi) >>> 1;
                if (valueAt(mid) <= t) {
                    lowIndex = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            long down = lowIndex < 0 ? 0 : codeAt(lowIndex);
            if (lowIndex >= 0 && valueAt(lowIndex) == t) {
                return new long[] {down, down};
            }
            long up = lowIndex >= last ? beyond : codeAt(lowIndex < 0 ? first : lowIndex + 1);
            return new long[] {down, up};
        }

        private double valueAt(long index) {
            return sorted != null ? values[(int) index] : valueOf(index);
        }

        private long codeAt(long index) {
            return sorted != null ? sorted[(int) index] : index;
        }
    }

    /** At most n items of the list, evenly spread, first and last included. */
    static <T> List<T> spread(List<T> items, int n) {
        if (items.size() <= n) {
            return items;
        }
        List<T> picked = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            picked.add(items.get((int) ((long) k * (items.size() - 1) / Math.max(1, n - 1))));
        }
        return picked;
    }

    /** The codes without a sign bit: those below it, or every code of an unsigned format (E8M0). */
    static long positiveCodes(FormatCodec codec) {
        return codec.signBit() != 0 ? codec.signBit() : 1L << codec.format().width();
    }

    /** Positive finite codes (zero excluded) of a floating format, in value order. */
    static List<Long> positiveFiniteCodes(FormatCodec codec) {
        Format f = codec.format();
        List<Long> codes = new ArrayList<>();
        if (f.width() <= 16) {
            for (long code = 0; code < positiveCodes(codec); code++) {
                if (codec.decode(code).kind() == Decoded.Kind.FINITE) {
                    codes.add(code);
                }
            }
            codes.sort(Comparator.comparing(code -> value(codec, code)));
            return codes;
        }
        // Wide IEEE formats: code order is value order; every binade's first and last code, spread by 2^16.
        for (long code = 1; code <= f.maxFinite(); code += Math.max(1, (f.maxFinite() >>> 16))) {
            codes.add(code);
        }
        for (long e = 0; e <= (f.maxFinite() >>> f.mantissaBits()); e++) {
            codes.add(Math.max(1, e << f.mantissaBits()));
            codes.add(Math.min(f.maxFinite(), ((e + 1) << f.mantissaBits()) - 1));
        }
        return codes.stream().distinct().sorted().toList();
    }

    static BigDecimal value(FormatCodec codec, long code) {
        Decoded d = codec.decode(code);
        return d.kind() == Decoded.Kind.FINITE ? Values.exact(d.negative(), d.significand(), d.exponent()) : BigDecimal.ZERO;
    }

    static BigInteger integerMin(Format f) {
        return f.isSigned() ? BigInteger.ONE.shiftLeft(f.width() - 1).negate() : BigInteger.ZERO;
    }

    static BigInteger integerMax(Format f) {
        return new BigInteger(Long.toUnsignedString(f.maxFinite()));
    }
}
