package convcert.vectors;

import static convcert.vectors.CodeValues.integerMax;
import static convcert.vectors.CodeValues.integerMin;
import static convcert.vectors.CodeValues.positiveFiniteCodes;
import static convcert.vectors.CodeValues.spread;
import static convcert.vectors.CodeValues.value;

import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.reference.Values;
import convcert.spec.Conversion;
import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.TaperedRow;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.IntStream;

/** The inputs of one pair, tag by tag (CoverageModel.inputs calls one method per coverage.csv tag). */
final class PairInputs {

    private final Reference reference;
    final Conversion c;
    final Format s;
    final Format d;
    final FormatCodec sc;
    final FormatCodec dc;
    final TaggedInputs inputs;
    final SourceGrid grid;
    final BigDecimal sourceMax;
    String tag;

    PairInputs(Reference reference, Conversion c) {
        this.reference = reference;
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

    private static boolean isDouble(BigDecimal t) {
        double x = t.doubleValue();
        return !Double.isInfinite(x) && new BigDecimal(x).compareTo(t) == 0;
    }
}
