package convcert.vectors;

import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.TensorShape;

/**
 * The inputs of a tensor case (tensors.csv; generator/COVERAGE.md, "Tensors"): whole tensors whose blocks
 * are the block format's own coverage blocks (BlockCoverage) laid into the tensor's grid, each tensor
 * taking the next blocks of that list, so that every block's tag meets every position: the first and the
 * last block of a row or column, the partial block at the edge (which takes the first values of its
 * coverage block), and each slot of the scale layout. Dequantizing tensors hold the coverage's scales in
 * their slots (padding slots zero) and its elements at their positions.
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
        int first = toBlock ? 0 : 1; // a dequantized block starts with its scale
        int scales = toBlock ? 0 : shape.scales();
        int perTensor = scales + shape.values();
        int count = tensors(level);
        long[] values = new long[count * perTensor];
        String[] tags = new String[count];
        int next = 0;
        for (int t = 0; t < count; t++) {
            int base = t * perTensor;
            for (int o = 0; o < shape.outer(); o++) {
                for (int i = 0; i < shape.inner(); i++) {
                    int from = (next++ % blocks.count()) * blocks.perBlock();
                    if (!toBlock) {
                        values[base + shape.scaleSlot(o, i)] = blocks.values()[from];
                    }
                    for (int j = 0; j < size; j++) {
                        int p = shape.position(o, i, j);
                        if (p >= 0) {
                            values[base + scales + p] = blocks.values()[from + first + j];
                        }
                    }
                }
            }
            tags[t] = "tensor";
        }
        return new BlockCoverage.Blocks(values, tags, perTensor);
    }
}
