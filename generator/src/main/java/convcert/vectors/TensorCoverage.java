package convcert.vectors;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.TensorShape;

/**
 * The inputs of a tensor case (tensors.csv; generator/COVERAGE.md, "Tensors"): whole tensors whose blocks
 * are the block format's own coverage blocks (BlockCoverage) laid into the tensor's grid, each tensor
 * taking the next blocks of that list, so that every block's tag meets every position: the first and the
 * last block of a row or column, the partial block at the edge (which takes the first values of its
 * coverage block), and each slot of the scale layout. Dequantizing tensors hold the coverage's scales in
 * their slots (padding slots zero) and its elements at their positions. A two-level block's coverage
 * carries the tensor's A before each block: quantizing tensors drop it (the quantizer finds A), dequantizing
 * ones take their first block's. Every other quantizing tensor has its NaN and infinite values made +0: a
 * single one decides a tensor's A (tensor-amax-nan), and a finite A is what tells the recipes apart.
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

    static BlockCoverage.Blocks of(Reference reference, BlockFormat tensor, boolean toBlock, Level level, long seed) {
        TensorShape shape = tensor.tensor();
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
        int next = 0;
        for (int t = 0; t < count; t++) {
            int base = t * perTensor;
            for (int o = 0; o < shape.outer(); o++) {
                for (int i = 0; i < shape.inner(); i++) {
                    int from = (next++ % blocks.count()) * blocks.perBlock();
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
            if (toBlock && t % 2 == 1) { // every other tensor finite: a NaN or infinity anywhere decides a tensor's A
                for (int p = base; p < base + perTensor; p++) {
                    Decoded.Kind kind = value.decode(values[p]).kind();
                    values[p] = kind == Decoded.Kind.NAN || kind == Decoded.Kind.INFINITE ? 0 : values[p];
                }
            }
            tags[t] = toBlock && t % 2 == 1 ? "finite tensor" : "tensor";
        }
        return new BlockCoverage.Blocks(values, tags, perTensor);
    }
}
