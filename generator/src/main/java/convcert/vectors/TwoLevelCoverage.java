package convcert.vectors;

import convcert.reference.BlockConverter;
import convcert.reference.Converter;
import convcert.reference.NaNs;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The inputs of a two-level block format's cases (NVFP4; generator/COVERAGE.md, "Two-level blocks"):
 * each block is the tensor's largest magnitude A, then the values (or the scale and the elements).
 * Crafted blocks reach what the recipe's decisions turn on: zero, NaN and infinite blocks, A of zero,
 * subnormal, tiny and huge, tensors whose maximum a block exceeds (the scale saturates), blocks far below
 * the tensor's maximum (the scale's least value), the element grid and its ties under exact scales, block
 * scales between two E4M3 values and on their midpoints; then blocks found by search that separate each
 * option of every two-level decision from each other option (the coverage is driven by the decisions,
 * as a test requires: each option's vectors fail under every other); then seeded random blocks. The
 * recipes compute in binary32, so values are floats. Deterministic for a level and seed.
 */
final class TwoLevelCoverage {

    /** The decisions a two-level recipe reads, each of whose options the vectors must tell apart. */
    static final List<Semantics.Switch<?>> DECISIONS = List.of(Semantics.TENSOR_SCALE_ARITHMETIC,
            Semantics.BLOCK_SCALE_ROUNDING, Semantics.BLOCK_SCALE_MINIMUM, Semantics.BLOCK_SCALE_SIGN, Semantics.MX_NAN,
            Semantics.MX_INFINITY, Semantics.BLOCK_SCALE_CHOICE, Semantics.TENSOR_SCALE_MAXIMUM, Semantics.ZERO_AMAX,
            Semantics.ELEMENT_ZERO_SIGN);

    private final Reference reference;
    private final BlockFormat block;
    private final Level level;
    private final long seed;
    private final int size;
    private final List<long[]> blocks = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();
    /** The largest block scale and element (448 and 6 for NVFP4), and their product M. */
    private final float scaleMax;
    private final float elementMax;
    private final float range;
    private final Converter scaleToFloat;
    /** The element values, ascending from 0 (0, 0.5, 1, ... 6 for E2M1). */
    private final float[] grid;

    TwoLevelCoverage(Reference reference, BlockFormat block, Level level, long seed) {
        this.reference = reference;
        this.block = block;
        this.level = level;
        this.seed = seed;
        this.size = block.size();
        this.scaleToFloat = reference.unlisted(block.scale(), block.value(), Rounding.RN);
        var elementToFloat = reference.unlisted(block.element(), block.value(), Rounding.RN);
        this.scaleMax = Float.intBitsToFloat((int) scaleToFloat.apply(block.scale().maxFinite()));
        this.elementMax = Float.intBitsToFloat((int) elementToFloat.apply(block.element().maxFinite()));
        this.range = scaleMax * elementMax;
        this.grid = new float[(int) block.element().maxFinite() + 1];
        for (int code = 0; code < grid.length; code++) {
            grid[code] = Float.intBitsToFloat((int) elementToFloat.apply(code));
        }
    }

    private double scaleValue(long code) {
        return Float.intBitsToFloat((int) scaleToFloat.apply(code));
    }

    private int scaled(int quick, int ci, int full) {
        return switch (level) {
            case QUICK -> quick;
            case CI -> ci;
            case FULL -> full;
        };
    }

    private static long bits(float f) {
        return Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
    }

    private void add(String tag, float amax, float[] values) {
        blocks.add(encode(amax, values));
        tags.add(tag);
    }

    /** A values -> block input: A, then the values. */
    private long[] encode(float amax, float[] values) {
        long[] v = new long[size + 1];
        v[0] = bits(amax);
        for (int i = 0; i < size; i++) {
            v[1 + i] = bits(values[i]);
        }
        return v;
    }

    private BlockCoverage.Blocks collect(int perBlock) {
        long[] flat = new long[blocks.size() * perBlock];
        for (int i = 0; i < blocks.size(); i++) {
            System.arraycopy(blocks.get(i), 0, flat, i * perBlock, perBlock);
        }
        return new BlockCoverage.Blocks(flat, tags.toArray(String[]::new), perBlock);
    }

    /** size random floats of magnitude at most top, spread over spread binades below it, random signs. */
    private float[] below(SplittableRandom random, float top, int spread) {
        float[] v = new float[size];
        for (int i = 0; i < size; i++) {
            float m = 1f + random.nextInt(1 << 23) * 0x1p-23f;
            float x = Math.scalb(m, Math.getExponent(top) - 1 - random.nextInt(Math.max(1, spread)));
            v[i] = random.nextBoolean() ? -x : x;
        }
        return v;
    }

    /** Random values with the largest magnitude exactly max, at a random position and sign. */
    private float[] withMax(SplittableRandom random, float max, int spread) {
        float[] v = below(random, max, spread);
        v[random.nextInt(size)] = random.nextBoolean() ? -max : max;
        return v;
    }

    BlockCoverage.Blocks toBlock() {
        SplittableRandom random = new SplittableRandom(seed ^ block.name().hashCode());
        specialBlocks(random);
        tensorEdges(random);
        elementGrid(random);
        scaleRounding(random);
        elementBoundaries(random);
        separating(true);
        for (int i = 0; i < scaled(20, 200, 5000); i++) {
            float amax = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-40, 40));
            add("random", amax, withMax(random, Math.scalb(amax, -random.nextInt(0, 16)), 1 + random.nextInt(24)));
        }
        return collect(size + 1);
    }

    /** Zero blocks and tensors (A = 0), NaNs among ordinary values, an all-NaN block, infinities. */
    private void specialBlocks(SplittableRandom random) {
        add("zero", range, new float[size]);
        float[] signed = new float[size];
        signed[random.nextInt(size)] = -0f;
        add("zero", 1f, signed);
        add("zero", 0f, new float[size]); // A = 0: reciprocal takes G = 1, divide divides 0 by 0
        add("zero-tensor", 0f, below(random, 4f, 6)); // A = 0 under a block that is not zero
        for (int i = 0; i < scaled(2, 4, 16); i++) { // one NaN among ordinary values
            float[] v = below(random, 100f, 12);
            v[i == 0 ? 0 : random.nextInt(size)] = i % 2 == 0 ? Float.NaN : Float.intBitsToFloat(0xFFC00001);
            add("nan", 1000f, v);
        }
        float[] allNan = new float[size];
        Arrays.fill(allNan, Float.NaN);
        add("nan", range, allNan);
        for (float inf : new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            float[] v = below(random, 8f, 8);
            v[random.nextInt(size)] = inf;
            add("infinity", range, v);
        }
    }

    /**
     * The tensor's largest magnitude at the edges of binary32 and of the recipes' arithmetic; blocks above it
     * (the scale saturates) and far below it (the scale underflows).
     */
    private void tensorEdges(SplittableRandom random) {
        for (float amax : new float[] {Float.MIN_VALUE, Float.MIN_NORMAL, 1e-30f, range / Float.MAX_VALUE,
            Math.nextDown(range / Float.MAX_VALUE), 1f, range, Math.nextUp(range), 1e30f, Float.MAX_VALUE}) {
            add("tensor-edge", amax, withMax(random, amax, 6));
            add("tensor-edge", amax, withMax(random, Math.scalb(amax, -random.nextInt(1, 12)), 6));
        }
        // a block above the tensor's maximum (a calibrated A exceeded): s passes the largest scale
        for (int k : new int[] {1, 2, 8}) {
            add("scale-saturates", 1f, withMax(random, Math.scalb(1f, k) * 1.25f, 4));
        }
        add("scale-saturates", 1f, withMax(random, Math.nextUp(1f), 4));
        // blocks far below the tensor's maximum: s near and under the scale's smallest normal and subnormal
        for (int k = 5; k <= 14; k++) { // a / A near 2^-k x 448: s = 448 x 2^-k x 6 / 6 around 2^-6 ... 2^-10
            float a = range * Math.scalb(1f, -k - 9);
            add("scale-underflow", range, withMax(random, a, 3));
            add("scale-underflow", range, withMax(random, a * 1.375f, 3));
        }
        add("scale-underflow", 1e30f, below(random, 1f, 3));
    }

    /** The element grid and its ties, under exact scales (A = M: T = 1 and G = 1; a = 6 S). */
    private void elementGrid(SplittableRandom random) {
        for (float scale : new float[] {1f, 0.0625f, 4f, 1.5f, 0.875f, 288f}) {
            List<Float> points = new ArrayList<>();
            for (int code = 1; code < grid.length; code++) {
                points.add(grid[code] * scale);
                points.add((grid[code - 1] + grid[code]) / 2 * scale);
            }
            for (int from = 0; from < points.size(); from += size - 1) {
                float[] v = new float[size];
                v[0] = elementMax * scale;
                for (int i = 1; i < size; i++) {
                    float p = points.get((from + i - 1) % points.size());
                    v[i] = random.nextBoolean() ? -p : p;
                }
                add("element-grid", range, v);
            }
        }
    }

    /**
     * s between two E4M3 values and on a midpoint (ties to even); then within a few binary32 steps of an E4M3
     * value or midpoint, under a tensor scale that is not a power of two: where the recipes' roundings of s
     * (and their order of operations) show.
     */
    private void scaleRounding(SplittableRandom random) {
        for (float s : new float[] {1.0625f, 1.1875f, 3.25f, 0.015625f * 1.0625f, 300f, 0.5f * 1.125f}) {
            add("scale-rounding", range, withMax(random, s * elementMax, 10));
        }
        for (int i = 0; i < scaled(4, 16, 64); i++) {
            add("scale-rounding", range, withMax(random, elementMax * (1f + random.nextInt(1 << 23) * 0x1p-23f)
                    * Math.scalb(1f, random.nextInt(-6, 8)), 10));
        }
        for (int i = 0; i < scaled(4, 12, 64); i++) {
            float amax = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-20, 20));
            int code = random.nextInt(1, (int) block.scale().maxFinite());
            double low = scaleValue(code - 1);
            double boundary = random.nextBoolean() ? scaleValue(code) : (low + scaleValue(code)) / 2;
            float center = (float) (boundary * elementMax * amax / range);
            for (int k = -3; k <= 3; k++) {
                float a = center;
                for (int step = 0; step < Math.abs(k); step++) {
                    a = k < 0 ? Math.nextDown(a) : Math.nextUp(a);
                }
                add("scale-boundary", amax, withMax(random, a, 6));
            }
        }
    }

    /**
     * Elements within a few binary32 steps of an E2M1 midpoint once scaled: where dividing by T x S and
     * multiplying by a rounded reciprocal part (the block's own scale S taken from the reference under the
     * table's defaults, so that the inputs are the same whatever decisions a run chooses: a recording made
     * from them replays under any reading).
     */
    private void elementBoundaries(SplittableRandom random) {
        BlockConverter quantizer = new Reference(reference.tables(), Semantics.defaults(reference.tables()))
                .blockConverter(block, block.modes().stream().sorted().findFirst().orElseThrow(), true);
        for (int i = 0; i < scaled(4, 16, 64); i++) {
            float amax = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-20, 20));
            float top = Math.scalb(amax, -random.nextInt(0, 8));
            float[] alone = new float[size];
            alone[0] = top;
            long[] scaleOut = new long[size + 1];
            quantizer.apply(encode(amax, alone), 0, scaleOut, 0, 1);
            double scale = scaleValue(scaleOut[0]);
            float[] v = new float[size];
            v[0] = top;
            for (int k = 1; k < size; k++) {
                int code = random.nextInt(0, grid.length - 1);
                float x = (float) ((grid[code] + grid[code + 1]) / 2 * scale * amax / range);
                for (int step = random.nextInt(-3, 4); step != 0; step += step < 0 ? 1 : -1) {
                    x = step < 0 ? Math.nextDown(x) : Math.nextUp(x);
                }
                v[k] = random.nextBoolean() ? -x : x;
            }
            add("element-boundary", amax, v);
        }
    }

    BlockCoverage.Blocks fromBlock() {
        SplittableRandom random = new SplittableRandom(seed ^ ~block.name().hashCode());
        long codes = 1L << block.element().width();
        long scaleSign = 1L << (block.scale().width() - 1);
        long one = reference.unlisted(block.value(), block.scale(), Rounding.RN).apply(bits(1f));
        long maxScale = block.scale().maxFinite();
        long[] edgeScales = {0, 1, 8, one, maxScale - 1, maxScale, block.scale().nan(), scaleSign | one,
            scaleSign | maxScale, scaleSign | block.scale().nan()};
        for (float amax : new float[] {range, 1f, 0f, Float.MIN_VALUE, 1e30f, Float.MAX_VALUE, 3.3f}) {
            for (long scale : edgeScales) {
                for (long first = 0; first < codes; first += size) {
                    long[] v = new long[size + 2];
                    v[0] = bits(amax);
                    v[1] = scale;
                    for (int i = 0; i < size; i++) {
                        v[2 + i] = (first + i) % codes;
                    }
                    blocks.add(v);
                    tags.add((scale & scaleSign) != 0 ? "negative-scale" : "scale-edge");
                }
            }
        }
        separating(false);
        for (int i = 0; i < scaled(10, 100, 2000); i++) {
            long[] v = new long[size + 2];
            v[0] = bits(Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-40, 40)));
            v[1] = random.nextLong(maxScale + 1);
            for (int k = 0; k < size; k++) {
                v[2 + k] = random.nextLong(codes);
            }
            blocks.add(v);
            tags.add("random");
        }
        return collect(size + 2);
    }

    /**
     * Blocks that tell each option of every two-level decision from each other option: random
     * candidates converted under both, kept where some output differs (NaN-scale elements excepted, as
     * the suite does not compare them). A decision that cannot change this direction's results finds
     * none, within a bounded search. Each pair searches with a random stream of its own, so an option
     * added to a decision adds blocks without changing the others.
     */
    private void separating(boolean toBlock) {
        int wanted = scaled(2, 4, 16);
        for (Semantics.Switch<?> decision : DECISIONS) {
            if (!reference.tables().decisions().containsKey(decision.id())) {
                continue;
            }
            List<String> options = decision.optionNames();
            for (int x = 0; x < options.size(); x++) {
                for (int y = x + 1; y < options.size(); y++) {
                    BlockConverter first = converter(decision, options.get(x), toBlock);
                    BlockConverter second = converter(decision, options.get(y), toBlock);
                    SplittableRandom random = new SplittableRandom(seed ^ String.join(" ", block.name(), decision.id(),
                            options.get(x), options.get(y), toBlock ? "to" : "from").hashCode());
                    int found = 0;
                    for (int attempt = 0; attempt < 20_000 && found < wanted; attempt++) {
                        long[] candidate = toBlock ? candidateValues(random) : candidateBlock(random);
                        if (differ(first, second, candidate)) {
                            blocks.add(candidate);
                            tags.add("separates-" + decision.id());
                            found++;
                        }
                    }
                }
            }
        }
    }

    private BlockConverter converter(Semantics.Switch<?> decision, String option, boolean toBlock) {
        Reference r = new Reference(reference.tables(), Semantics.of(reference.tables(),
                Map.of(decision.id(), option)));
        return r.blockConverter(block, toBlock ? block.modes().stream().sorted().findFirst().orElseThrow()
                : Rounding.RN, toBlock);
    }

    private static boolean differ(BlockConverter a, BlockConverter b, long[] in) {
        long[] x = new long[a.outputsPerBlock()];
        long[] y = new long[b.outputsPerBlock()];
        a.apply(in, 0, x, 0, 1);
        b.apply(in, 0, y, 0, 1);
        for (int i = 0; i < x.length; i++) {
            boolean bothNan = NaNs.isNaN(a.outputCodec(i), x[i]) && NaNs.isNaN(a.outputCodec(i), y[i]);
            if (a.compared(x, 0, i) && b.compared(y, 0, i) && x[i] != y[i] && !bothNan) {
                return true;
            }
        }
        return false;
    }

    /** A random value block: A and a block maximum apart by a random power, some blocks tiny or with a special value. */
    private long[] candidateValues(SplittableRandom random) {
        float amax = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-20, 20));
        float[] v = withMax(random, Math.scalb(amax, -random.nextInt(0, 24)), 1 + random.nextInt(8));
        switch (random.nextInt(8)) {
            case 0 -> v[random.nextInt(size)] = Float.NaN;
            case 1 -> v[random.nextInt(size)] = Float.POSITIVE_INFINITY;
            default -> { }
        }
        long[] block = new long[size + 1];
        block[0] = bits(amax);
        for (int i = 0; i < size; i++) {
            block[1 + i] = bits(v[i]);
        }
        return block;
    }

    private long[] candidateBlock(SplittableRandom random) {
        long[] v = new long[size + 2];
        v[0] = bits(Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(-20, 20)));
        v[1] = random.nextLong(1L << block.scale().width());
        for (int k = 0; k < size; k++) {
            v[2 + k] = random.nextLong(1L << block.element().width());
        }
        return v;
    }
}
