package convcert.vectors;

import convcert.common.UsageException;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.Conversion;
import convcert.spec.Format;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The inputs of a block-scaled format's cases (generator/COVERAGE.md, "Blocks"): whole blocks, each
 * with the coverage tag it was made for. Values -> block: zero, NaN and infinite blocks, block maxima
 * at and next to every kind of binade edge (of the value format, of the scale range, of the
 * scale-derivation rules), maxima whose quotient rounds past the largest element, every tie of the
 * element grid, element subnormals and underflow, blocks of value subnormals, and seeded random
 * blocks. Block -> values: every element code under the edge scales, the NaN scale, random blocks.
 * Deterministic for a level and seed.
 */
final class BlockCoverage {

    /** One case's blocks, flattened, with a tag per block. */
    record Blocks(long[] values, String[] tags, int perBlock) {
        int count() {
            return tags.length;
        }

        Map<String, Integer> counts() {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String t : tags) {
                counts.merge(t, 1, Integer::sum);
            }
            return counts;
        }
    }

    private final Reference reference;
    private final BlockFormat block;
    private final FormatCodec value;
    private final FormatCodec element;
    private final Level level;
    private final long seed;
    private final List<long[]> blocks = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();

    BlockCoverage(Reference reference, BlockFormat block, Level level, long seed) {
        this.reference = reference;
        this.block = block;
        this.value = reference.codec(block.value());
        this.element = reference.codec(block.element());
        this.level = level;
        this.seed = seed;
    }

    private int scaled(int quick, int ci, int full) {
        return switch (level) {
            case QUICK -> quick;
            case CI -> ci;
            case FULL -> full;
        };
    }

    private Blocks collect(int perBlock) {
        long[] flat = new long[blocks.size() * perBlock];
        for (int i = 0; i < blocks.size(); i++) {
            System.arraycopy(blocks.get(i), 0, flat, i * perBlock, perBlock);
        }
        return new Blocks(flat, tags.toArray(String[]::new), perBlock);
    }

    private void add(String tag, long[] values) {
        blocks.add(values);
        tags.add(tag);
    }

    // ---- value -> block ------------------------------------------------------------------------

    /** The bits of +-m * 2^e in the value format (m a small integer; e may reach subnormals). */
    private long number(boolean negative, long m, int e) {
        // exact in the value format by construction: encoded through the codec's grid
        int length = 64 - Long.numberOfLeadingZeros(m);
        int binade = e + length - 1;
        int q = value.quantum(binade);
        long kept = q >= e ? m >>> (q - e) : m << (e - q);
        return value.encode(negative, kept, q);
    }

    private long power(int e) {
        return number(false, 1, e);
    }

    private long nextUp(long bits) {
        return bits + 1; // positive finite values of an IEEE-like format: the next code is the next value
    }

    private long nextDown(long bits) {
        return bits - 1;
    }

    /** Random values at most 2^top in magnitude, spread over spread binades below it, random signs. */
    private long[] below(SplittableRandom random, int top, int spread) {
        long[] values = new long[block.size()];
        Format f = block.value();
        for (int i = 0; i < values.length; i++) {
            int e = Math.max(value.minExponent() - f.mantissaBits(), top - 1 - random.nextInt(Math.max(1, spread)));
            long m = (1L << f.mantissaBits()) | random.nextLong(1L << f.mantissaBits());
            long bits = e >= value.minExponent() ? number(false, m, e - f.mantissaBits()) : number(false, 1, e);
            values[i] = random.nextBoolean() ? bits | (1L << (f.width() - 1)) : bits;
        }
        return values;
    }

    private long[] withMax(SplittableRandom random, long max, int spread) {
        int top = value.decode(max).binade();
        long[] values = below(random, top, spread);
        values[random.nextInt(values.length)] = random.nextBoolean() ? max | (1L << (block.value().width() - 1)) : max;
        return values;
    }

    Blocks toBlock() {
        if (block.twoLevel()) {
            return new TwoLevelCoverage(reference, block, level, seed).toBlock();
        }
        if (!block.scaled()) {
            return lanes();
        }
        SplittableRandom random = new SplittableRandom(seed ^ block.name().hashCode());
        specialBlocks(random);
        binadeEdges(random);
        roundingPastTheTop(random);
        elementGrid(random);
        elementUnderflow(random);
        valueSubnormalsAndRandom(random);
        return collect(block.size());
    }

    /** Zero blocks, NaNs (quiet, signalling, negative) among ordinary values, an all-NaN block, infinities. */
    private void specialBlocks(SplittableRandom random) {
        Format f = block.value();
        long sign = 1L << (f.width() - 1);
        int size = block.size();
        long[] zeros = new long[size];
        add("zero", zeros.clone());
        zeros[random.nextInt(size)] = sign;
        zeros[random.nextInt(size)] = sign;
        add("zero", zeros);
        long nan = f.nan();
        for (int i = 0; i < scaled(2, 4, 16); i++) { // one NaN (quiet, signalling, negative) among ordinary values
            long[] v = below(random, random.nextInt(-20, 20), 12);
            long which = switch (i % 3) {
                case 0 -> nan;
                case 1 -> f.inf() | 1;
                default -> nan | sign;
            };
            v[i == 0 ? 0 : i == 1 ? size - 1 : random.nextInt(size)] = which;
            add("nan", v);
        }
        long[] allNan = new long[size];
        Arrays.fill(allNan, nan);
        add("nan", allNan);
        for (long inf : new long[] {f.inf(), f.inf() | sign}) {
            long[] v = below(random, 3, 8);
            v[random.nextInt(size)] = inf;
            add("infinity", v);
        }
        long[] both = below(random, 3, 8);
        both[0] = f.inf();
        both[1] = nan;
        add("infinity", both);
    }

    /** Block maxima at and next to binade edges of the whole value range, and where the scale stops clamping. */
    private void binadeEdges(SplittableRandom random) {
        Format f = block.value();
        int emax = element.maxExponent();
        int lowest = value.minExponent() - f.mantissaBits();
        int highest = value.maxExponent();
        List<Integer> edges = new ArrayList<>();
        if (level == Level.FULL) {
            for (int e = lowest; e <= highest; e++) {
                edges.add(e);
            }
        } else {
            int[] scaleEdge = {-127 + emax - 1, -127 + emax, -127 + emax + 1}; // where the scale stops clamping
            for (int e : new int[] {lowest, lowest + 1, value.minExponent() - 1, value.minExponent(), -60, -1, 0, 1,
                emax, 20, highest - 1, highest}) {
                edges.add(e);
            }
            for (int e : scaleEdge) {
                edges.add(e);
            }
            for (int i = 0; i < scaled(2, 12, 0); i++) {
                edges.add(random.nextInt(lowest, highest + 1));
            }
        }
        for (int e : edges) {
            long p = power(e);
            add("binade-edge", withMax(random, p, 20));
            add("binade-edge", withMax(random, nextDown(p), 20));
            add("binade-edge", withMax(random, nextUp(p), 20));
        }
        add("binade-edge", withMax(random, f.maxFinite(), 20));
    }

    /**
     * Maxima whose quotient by the floor scale lands at the top of the element range: the largest element,
     * halfway past it, just below 2^(emax+1), and the even rule's carry threshold.
     */
    private void roundingPastTheTop(SplittableRandom random) {
        int emax = element.maxExponent();
        Decoded top = element.decode(block.element().maxFinite());
        int m = block.element().mantissaBits();
        for (int j : new int[] {0, random.nextInt(-100, -10), random.nextInt(10, 100)}) {
            long largest = number(false, top.significand(), top.exponent() + j);
            long halfPast = number(false, 2 * top.significand() + 1, top.exponent() - 1 + j);
            long threshold = number(false, (1L << (m + 2)) - 1, emax - m - 1 + j); // 1.11..1|1 b x 2^emax
            long justBelowTwo = nextDown(power(emax + 1 + j));
            for (long max : new long[] {largest, nextUp(largest), nextDown(halfPast), halfPast, nextUp(halfPast),
                nextDown(threshold), threshold, justBelowTwo}) {
                add("round-up", withMax(random, max, 6));
            }
        }
    }

    /** Every tie and every value of the element grid, under one scale (the block's maximum sets it). */
    private void elementGrid(SplittableRandom random) {
        long sign = 1L << (block.value().width() - 1);
        int size = block.size();
        Decoded top = element.decode(block.element().maxFinite());
        for (int j : new int[] {0, random.nextInt(-60, 60)}) {
            List<Long> points = new ArrayList<>();
            for (long code = 1; code <= block.element().maxFinite(); code++) {
                Decoded a = element.decode(code - 1);
                Decoded b = element.decode(code);
                if (b.kind() != Decoded.Kind.FINITE) {
                    continue;
                }
                points.add(number(false, b.significand(), b.exponent() + j));
                // midpoint of a and b: (a + b) / 2, with a = 0 for the first
                long as = a.kind() == Decoded.Kind.FINITE ? a.significand() << Math.max(0, a.exponent() - b.exponent()) : 0;
                int base = a.kind() == Decoded.Kind.FINITE ? Math.min(a.exponent(), b.exponent()) : b.exponent();
                long bs = b.significand() << (b.exponent() - base);
                points.add(number(false, as + bs, base - 1 + j));
            }
            long max = number(false, top.significand(), top.exponent() + j);
            for (int from = 0; from < points.size(); from += size - 1) {
                long[] v = new long[size];
                v[0] = max;
                for (int i = 1; i < size; i++) {
                    long p = points.get((from + i - 1) % points.size());
                    v[i] = random.nextBoolean() ? p | sign : p;
                }
                add("element-grid", v);
            }
        }
    }

    /** Values below the smallest element: half of it (a tie with zero), just above, far below. */
    private void elementUnderflow(SplittableRandom random) {
        long sign = 1L << (block.value().width() - 1);
        Decoded top = element.decode(block.element().maxFinite());
        for (int j : new int[] {0, random.nextInt(-60, 60)}) {
            Decoded smallest = element.decode(1);
            long max = number(false, top.significand(), top.exponent() + j);
            long[] v = below(random, smallest.binade() + j, 6);
            v[0] = max;
            v[1] = number(false, 1, smallest.exponent() - 1 + j);
            v[2] = nextUp(v[1]);
            v[3] = nextDown(v[1]);
            v[4] = v[1] | sign;
            add("element-underflow", v);
        }
    }

    /** Blocks whose every value is a subnormal of the value format, then seeded random blocks over the range. */
    private void valueSubnormalsAndRandom(SplittableRandom random) {
        Format f = block.value();
        long sign = 1L << (f.width() - 1);
        int size = block.size();
        int lowest = value.minExponent() - f.mantissaBits();
        int highest = value.maxExponent();
        int m = block.element().mantissaBits();
        for (int i = 0; i < scaled(1, 3, 12); i++) {
            long[] v = new long[size];
            for (int k = 0; k < size; k++) {
                v[k] = random.nextLong(1, 1L << f.mantissaBits()) | (random.nextBoolean() ? sign : 0);
            }
            add("subnormal", v);
        }
        for (int i = 0; i < scaled(20, 200, 5000); i++) {
            int topBinade = random.nextInt(lowest, highest + 1);
            add("random", below(random, topBinade + 1, 1 + random.nextInt(4 * (element.maxExponent() + m + 2))));
        }
    }

    // ---- block -> values ----------------------------------------------------------------------

    /**
     * A block without a scale (a packed vector): the value -> element conversion's own coverage points
     * (coverage.csv, tagged as there), lane k of block i holding point i + k * stride, so that every
     * lane sees every point beside different neighbours.
     */
    private Blocks lanes() {
        Conversion pair = reference.tables().conversion(block.value(), block.element());
        if (pair == null) {
            throw new UsageException(block.location() + ": block " + block.name()
                    + " has no scale, so its lanes take the coverage of " + block.value().name() + "->"
                    + block.element().name() + ", which conversions.csv lacks");
        }
        TaggedInputs points = new CoverageModel(reference, CoverageTag.builtIn(), level, seed).inputs(pair);
        long[] bits = points.bits();
        int stride = Math.max(1, bits.length / block.size() + 1);
        for (int i = 0; i < bits.length; i++) {
            long[] v = new long[block.size()];
            for (int k = 0; k < v.length; k++) {
                v[k] = bits[(int) ((i + (long) k * stride) % bits.length)];
            }
            add(points.tags()[i], v);
        }
        return collect(block.size());
    }

    Blocks fromBlock() {
        if (block.twoLevel()) {
            return new TwoLevelCoverage(reference, block, level, seed).fromBlock();
        }
        if (!block.scaled()) {
            return unscaledBlocks();
        }
        SplittableRandom random = new SplittableRandom(seed ^ ~block.name().hashCode());
        int size = block.size();
        long codes = 1L << block.element().width();
        long scaleNan = block.scale().nan();
        long scaleMax = block.scale().maxFinite();
        long one = block.scale().bias();
        long[] edgeScales = {0, 1, one - 1, one, one + 1, scaleMax - 1, scaleMax};
        for (long scale : edgeScales) {
            for (long first = 0; first < codes; first += size) {
                long[] v = new long[size + 1];
                v[0] = scale;
                for (int i = 0; i < size; i++) {
                    v[1 + i] = (first + i) % codes;
                }
                add("scale-edge", v);
            }
        }
        long[] nanScale = new long[size + 1];
        nanScale[0] = scaleNan;
        for (int i = 0; i < size; i++) {
            nanScale[1 + i] = random.nextLong(codes);
        }
        add("nan-scale", nanScale);
        for (int i = 0; i < scaled(10, 100, 2000); i++) {
            long[] v = new long[size + 1];
            v[0] = random.nextLong(scaleMax + 1);
            for (int k = 0; k < size; k++) {
                v[1 + k] = random.nextLong(codes);
            }
            add("random", v);
        }
        return collect(size + 1);
    }

    /** A packed vector's blocks: every combination of element codes when there are few, else seeded random ones. */
    private Blocks unscaledBlocks() {
        long codes = 1L << block.element().width();
        long all = 1;
        for (int k = 0; k < block.size() && all <= 1 << 16; k++) {
            all *= codes;
        }
        if (all <= 1 << 16) {
            for (long n = 0; n < all; n++) {
                long[] v = new long[block.size()];
                long rest = n;
                for (int k = 0; k < v.length; k++) {
                    v[k] = rest % codes;
                    rest /= codes;
                }
                add("exhaustive", v);
            }
            return collect(block.size());
        }
        SplittableRandom random = new SplittableRandom(seed ^ ~block.name().hashCode());
        for (int i = 0; i < scaled(1000, 10_000, 100_000); i++) {
            add("random", random.longs(block.size(), 0, 1L << block.element().width()).toArray());
        }
        return collect(block.size());
    }
}
