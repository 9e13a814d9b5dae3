package convcert.faults;

import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.spec.BlockExtent;
import convcert.spec.TensorShape;
import java.util.Arrays;

/**
 * The faults of mechanism block (faults.csv): a quantizer's plausible bugs in finding a block's scale and
 * in laying a tensor out, as a faulty conversion of one vector of a value -> block or value -> tensor case
 * (a block, or a whole tensor). Block-level faults act on every block, in place in a tensor; layout faults
 * on a tensor's stored scales; random-bit faults on the random bits a stochastic (rs) case gives each value;
 * rotation faults on how a rotated tensor's values are rotated (rotation-skipped, rotation-unnormalized).
 * The maximum faults take one-level scaled blocks (OCP MX) only: NVFP4's two-level recipe finds its maximum as its
 * decisions say; the layout faults take both.
 */
public final class BlockFaults {

    private BlockFaults() {
    }

    /** The faulty conversion of one vector of the case, or null where the fault cannot apply to it. */
    public static BlockFunction of(Fault f, BlockConverter c) {
        BlockConverter blocks = c.blocks();
        if (f.mechanism() != Mechanism.BLOCK || !c.toBlock()) {
            return null;
        }
        if (f.parameter().startsWith("random-")) {
            return c.stochastic() ? randomBits(c, f) : null;
        }
        switch (f.parameter()) { // a rotated tensor's, NVFP4's (two-level) included
            case "rotation-skipped" -> {
                return c.rotatedBy(false, true);
            }
            case "rotation-unnormalized" -> {
                return c.rotatedBy(true, false);
            }
            default -> { }
        }
        if (!blocks.block().scaled()) {
            return null;
        }
        boolean twoLevel = blocks.block().twoLevel(); // NVFP4's maximum is its recipe's (decisions); its layouts are these
        int size = blocks.block().size();
        if (f.applies().contains("tensor")) {
            return c.block().extent() instanceof TensorShape t ? tensorFault(f, c, t, blocks, size) : null;
        }
        return switch (f.parameter()) {
            case "signed-maximum" -> twoLevel ? null : c.withBlocks((in, i, out, o) -> { // max(x), not max(|x|): the negatives drop out
                long[] proxy = Arrays.copyOfRange(in, i, i + size);
                var value = blocks.block().value();
                long sign = 1L << (value.width() - 1);
                for (int j = 0; j < size; j++) { // a NaN propagates through max whatever its sign bit, as real reductions do
                    boolean nan = (proxy[j] & ~sign) > (value.mask() >>> 1 & ~((1L << value.mantissaBits()) - 1));
                    proxy[j] = (proxy[j] & sign) != 0 && !nan ? 0 : proxy[j];
                }
                blocks.quantizeUnder(blocks.scaleOf(proxy, 0), in, i, out, o);
            });
            case "maximum-skips-last" -> twoLevel ? null : switch (c.block().extent()) {
                case TensorShape t -> t.rotation() != null ? null : skipsLast(c, t, blocks, size);
                case BlockExtent.OneBlock one -> c.withBlocks((in, i, out, o) -> {
                    long[] proxy = Arrays.copyOfRange(in, i, i + size);
                    proxy[size - 1] = 0;
                    blocks.quantizeUnder(blocks.scaleOf(proxy, 0), in, i, out, o);
                });
            };
            default -> throw new IllegalArgumentException("fault " + f.id() + ": unknown block parameter " + f.parameter());
        };
    }

    /** A fault of a tensor's scale layout or of its last partial block, or null where the tensor cannot show it. */
    private static BlockFunction tensorFault(Fault f, BlockConverter c, TensorShape t, BlockConverter blocks, int size) {
        boolean twoLevel = blocks.block().twoLevel();
        return switch (f.parameter()) {
            case "scales-row-major" -> t.layout() == TensorShape.ScaleLayout.PLAIN ? null
                    : relaid(c, t, (o, i) -> o * t.inner() + i);
            case "shuffle-inverted" -> t.layout() != TensorShape.ScaleLayout.SHUFFLED_256X8 ? null
                    : relaid(c, t, (r, k) -> unshuffled(r * ((t.inner() + 7) / 8 * 8) + k, (t.inner() + 7) / 8 * 8));
            case "swizzle-row-order" -> t.layout() != TensorShape.ScaleLayout.SWIZZLED_128X4 ? null
                    : relaid(c, t, (o, i) -> t.scaleSlot(o, i) / 512 * 512 + (o % 32) * 4 + (o / 32 % 4) * 128 + i % 4);
            case "partial-block-reads-on" -> twoLevel || t.along() != TensorShape.Along.ROW || t.columns() % size == 0 || t.rows() < 2
                    ? null : readsOn(c, t, blocks, size);
            default -> throw new IllegalArgumentException("fault " + f.id() + ": unknown tensor parameter " + f.parameter());
        };
    }

    /**
     * The right conversion of inputs whose random bits (the last of each vector, one per value) went astray:
     * random-zero, all read as zeros (an rbits register never filled); random-reversed, each group of four values
     * given the group's bits last to first (cvt.rs's four operands listed the other way round from the bits).
     */
    private static BlockFunction randomBits(BlockConverter c, Fault f) {
        int n = c.block().elements();
        boolean zero = switch (f.parameter()) {
            case "random-zero" -> true;
            case "random-reversed" -> false;
            default -> throw new IllegalArgumentException("fault " + f.id() + ": unknown block parameter " + f.parameter());
        };
        return (in, i, out, o) -> {
            long[] x = Arrays.copyOfRange(in, i, i + c.inputsPerBlock());
            int at = x.length - n;
            for (int j = 0; j < n; j++) {
                int from = j ^ 3;
                x[at + j] = zero ? 0 : from < n ? in[i + at + from] : x[at + j];
            }
            c.apply(x, 0, out, o, 1);
        };
    }

    private interface Slot {
        int of(int o, int i);
    }

    /**
     * AMD's shuffle run backwards: slot k read as a shuffled index (a, d, f, c, e, b) of shape (., inner / 8,
     * 4, 16, 2, 2) and sent to the row-major index of (32a + 16b + c, 8d + 4e + f) in a grid inner wide.
     */
    private static int unshuffled(int k, int inner) {
        int a = k / (32 * inner);
        int rest = k % (32 * inner);
        int d = rest / 256;
        int f = rest / 64 % 4;
        int c = rest / 4 % 16;
        int e = rest / 2 % 2;
        int b = rest % 2;
        return (32 * a + 16 * b + c) * inner + 8 * d + 4 * e + f;
    }

    /** The right tensor with its scales stored at other slots (the rest zero); a two-level tensor's A leads, unmoved. */
    private static BlockFunction relaid(BlockConverter c, TensorShape t, Slot wrong) {
        int lead = c.outputsPerBlock() - t.scales() - t.values();
        return (in, i, out, o) -> {
            long[] right = new long[c.outputsPerBlock()];
            c.apply(in, i, right, 0, 1);
            System.arraycopy(right, 0, out, o, lead);
            System.arraycopy(right, lead + t.scales(), out, o + lead + t.scales(), t.values());
            Arrays.fill(out, o + lead, o + lead + t.scales(), 0);
            for (int r = 0; r < t.outer(); r++) {
                for (int k = 0; k < t.inner(); k++) {
                    out[o + lead + wrong.of(r, k)] = right[lead + t.scaleSlot(r, k)];
                }
            }
        };
    }

    /**
     * maximum-skips-last in a tensor: each block's maximum stops one short of its last value present, a partial
     * block's last too (the loop runs over the values a row holds, not over a padded block).
     */
    private static BlockFunction skipsLast(BlockConverter c, TensorShape t, BlockConverter blocks, int size) {
        return (in, i, out, o) -> {
            c.apply(in, i, out, o, 1);
            long[] own = new long[size];
            long[] proxy = new long[size];
            for (int r = 0; r < t.outer(); r++) {
                for (int k = 0; k < t.inner(); k++) {
                    int present = 0;
                    for (int j = 0; j < size; j++) {
                        int p = t.position(r, k, j);
                        own[j] = p < 0 ? 0 : in[i + p];
                        present = p < 0 ? present : j + 1;
                    }
                    System.arraycopy(own, 0, proxy, 0, size);
                    proxy[Math.max(present - 1, 0)] = 0;
                    quantized(blocks, t, proxy, own, r, k, out, o);
                }
            }
        };
    }

    /** Block (r, k) of a tensor, its values own, under the scale proxy's maximum gives: its scale and elements into out. */
    private static void quantized(BlockConverter blocks, TensorShape t, long[] proxy, long[] own, int r, int k, long[] out, int o) {
        long[] result = new long[1 + own.length];
        blocks.quantizeUnder(blocks.scaleOf(proxy, 0), own, 0, result, 0);
        out[o + t.scaleSlot(r, k)] = result[0];
        for (int j = 0; j < own.length; j++) {
            int p = t.position(r, k, j);
            if (p >= 0) {
                out[o + t.scales() + p] = result[1 + j];
            }
        }
    }

    /**
     * The right tensor but for each row's partial last block, whose maximum also takes the values that follow
     * it in memory, the next row's first ones (zeros past the tensor), as a kernel reading whole blocks does.
     */
    private static BlockFunction readsOn(BlockConverter c, TensorShape t, BlockConverter blocks, int size) {
        return (in, i, out, o) -> {
            c.apply(in, i, out, o, 1);
            int last = t.inner() - 1;
            long[] proxy = new long[size];
            long[] own = new long[size];
            for (int r = 0; r < t.outer(); r++) {
                int start = r * t.columns() + last * size;
                for (int j = 0; j < size; j++) {
                    proxy[j] = start + j < t.values() ? in[i + start + j] : 0;
                    own[j] = t.position(r, last, j) < 0 ? 0 : proxy[j];
                }
                quantized(blocks, t, proxy, own, r, last, out, o);
            }
        };
    }
}
