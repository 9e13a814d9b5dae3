package convcert.vectors;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.HadamardRotation;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.TensorShape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inputs of a tensor case (tensors.csv; generator/COVERAGE.md, "Tensors"): whole tensors whose blocks
 * are the block format's own coverage blocks (BlockCoverage) laid into the tensor's grid, each tensor
 * taking the next blocks of that list, so that every block's tag meets every position: the first and the
 * last block of a row or column, the partial block at the edge (which takes the first values of its
 * coverage block), and each slot of the scale layout. Dequantizing tensors hold the coverage's scales in
 * their slots (padding slots zero) and its elements at their positions. A two-level block's coverage
 * carries the tensor's A before each block: quantizing tensors drop it (the quantizer finds A), dequantizing
 * ones take their first block's. Every other quantizing tensor has its NaN and infinite values made +0: a
 * single one decides a tensor's A (tensor-amax-nan), and a finite A is what tells the recipes apart; a finite
 * NVFP4 tensor is made of coverage blocks made for one A (the smallest such groups, in turn), its last value A
 * itself, so that its blocks meet the recipes' arithmetic as the block cases do. A rotated tensor holds the
 * preimages of such blocks under its rotation (rotatable).
 */
final class TensorCoverage {

    private TensorCoverage() {
    }

    /** Tensors per case, by level. */
    static int tensors(Level level) {
        return switch (level) {
            case QUICK -> 2;
            case CI -> 4;
            case FULL -> 8;
        };
    }

    /**
     * A two-level coverage's blocks grouped by the A they were made for, the smallest groups first (those made for
     * one recipe's edge; the largest, A = M, makes every recipe's arithmetic exact); one group for one level.
     */
    private static List<List<Integer>> sameAmax(BlockCoverage.Blocks blocks, int lead) {
        Map<Long, List<Integer>> groups = new LinkedHashMap<>();
        for (int b = 0; b < blocks.count(); b++) {
            groups.computeIfAbsent(lead == 0 ? 0L : blocks.values()[b * blocks.perBlock()], x -> new ArrayList<>()).add(b);
        }
        List<List<Integer>> sorted = new ArrayList<>(groups.values());
        sorted.sort(Comparator.comparingInt(g -> g.size()));
        return sorted;
    }

    static BlockCoverage.Blocks of(Reference reference, BlockFormat tensor, TensorShape shape, boolean toBlock, Level level,
                                   long seed) {
        BlockCoverage coverage = new BlockCoverage(reference, shape.block(), level, seed);
        BlockCoverage.Blocks blocks = toBlock ? coverage.toBlock() : coverage.fromBlock();
        int size = shape.block().size();
        int lead = tensor.twoLevel() ? 1 : 0; // a two-level block starts with the tensor's A
        int first = lead + (toBlock ? 0 : 1); // a dequantized block with its scale
        int scales = toBlock ? 0 : lead + shape.scales(); // a dequantized tensor starts with A and its scales
        int perTensor = scales + shape.values();
        int count = tensors(level);
        FormatCodec value = reference.codec(tensor.value());
        long[] values = new long[count * perTensor];
        String[] tags = new String[count];
        List<List<Integer>> byAmax = sameAmax(blocks, lead);
        int next = 0;
        for (int t = 0; t < count; t++) {
            int base = t * perTensor;
            boolean finite = toBlock && t % 2 == 1;
            // a finite two-level tensor takes blocks made for one A, and A itself: the recipes' steps meet it as designed
            List<Integer> group = finite && lead > 0 ? byAmax.get(t / 2 % byAmax.size()) : null;
            int k = 0;
            for (int o = 0; o < shape.outer(); o++) {
                for (int i = 0; i < shape.inner(); i++) {
                    int from = (group == null ? next++ % blocks.count() : group.get(k++ % group.size())) * blocks.perBlock();
                    if (!toBlock) {
                        values[base + lead + shape.scaleSlot(o, i)] = blocks.values()[from + lead];
                        if (lead > 0 && o == 0 && i == 0) {
                            values[base] = blocks.values()[from]; // A: its first block's
                        }
                    }
                    for (int j = 0; j < size; j++) {
                        int p = shape.position(o, i, j);
                        if (p >= 0) {
                            values[base + scales + p] = blocks.values()[from + first + j];
                        }
                    }
                }
            }
            if (finite) { // every other tensor finite: a NaN or infinity anywhere decides a tensor's A
                for (int p = base; p < base + perTensor; p++) {
                    Decoded.Kind kind = value.decode(values[p]).kind();
                    values[p] = kind == Decoded.Kind.NAN || kind == Decoded.Kind.INFINITE ? 0 : values[p];
                }
                if (group != null) {
                    values[base + perTensor - 1] = blocks.values()[group.get(0) * blocks.perBlock()];
                }
            }
            if (toBlock && shape.rotation() != null) {
                rotatable(values, base, shape);
            }
            tags[t] = toBlock && t % 2 == 1 ? "finite tensor" : "tensor";
        }
        return new BlockCoverage.Blocks(values, tags, perTensor);
    }

    /**
     * A rotated tensor's values made the preimage of what they were, block by block: the coverage's block becomes
     * what the quantizer sees after the rotation. First each block is made exactly rotatable in binary32 whatever
     * the order of summation: NaN and infinity become +0 (and -0 too, whose sum's sign is the order's), the block
     * scaled by a power of two into binades -100 to 100 where it lies beyond, and each value cut toward zero to a
     * multiple of 2^-15 of the block's largest binade, so that every x holds at most 20 significant bits and
     * every partial sum of its rotation at most 24. The edges of a block's scale stay where the coverage put them, bar their last bits.
     */
    private static void rotatable(long[] values, int base, TensorShape shape) {
        int n = shape.block().size();
        float[] y = new float[n];
        for (int o = 0; o < shape.outer(); o++) {
            for (int i = 0; i < shape.inner(); i++) {
                int top = Integer.MIN_VALUE;
                for (int j = 0; j < n; j++) {
                    float v = Float.intBitsToFloat((int) values[base + shape.position(o, i, j)]);
                    y[j] = Float.isFinite(v) && v != 0 ? v : 0f;
                    top = y[j] == 0 ? top : Math.max(top, Math.getExponent(y[j]));
                }
                int shift = top == Integer.MIN_VALUE ? 0 : top > 100 ? 100 - top : top < -100 ? -100 - top : 0;
                double grid = top == Integer.MIN_VALUE ? 1 : Math.scalb(1.0, top + shift - 15);
                for (int j = 0; j < n; j++) {
                    double scaled = Math.scalb((double) y[j], shift);
                    y[j] = (float) (Math.floor(Math.abs(scaled) / grid) * grid * Math.signum(scaled)) + 0f;
                }
                float[] x = HadamardRotation.preimage(y, shape.rotation());
                for (int j = 0; j < n; j++) {
                    values[base + shape.position(o, i, j)] = Float.floatToRawIntBits(x[j] + 0f) & 0xFFFFFFFFL;
                }
            }
        }
    }
}
