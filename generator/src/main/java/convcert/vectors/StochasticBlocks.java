package convcert.vectors;

import convcert.reference.BlockConverter;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The inputs of a block or tensor case under stochastic rounding (rs; generator/COVERAGE.md, "Stochastic
 * blocks"): each block of the case's round-to-nearest coverage again with random bits after its values, one
 * per value. Five times: all zeros and all ones (every inexact element down, then up), twice at each
 * element's carry boundary (the least random bits that round it up, and one less, alternating along the
 * block and then the other way round, so that bits given to the wrong element show; tag carry; only where
 * random bits decide some element), and seeded random bits (tag random-operand). A tensor, whose thousands
 * of elements hold all of these at once, is given the two boundary pairs only (seeded bits where none
 * decides). The boundaries are found by bisection on the reference under the table's defaults, all elements
 * at once, so the inputs are the same whatever decisions a run chooses.
 */
final class StochasticBlocks {

    private StochasticBlocks() {
    }

    /** base: blocks of c's inputs without the random bits (perBlock short of them by c's elements). */
    static BlockCoverage.Blocks of(Reference reference, BlockConverter c, BlockCoverage.Blocks base, long seed) {
        BlockConverter defaults = new Reference(reference.tables(), Semantics.defaults(reference.tables()))
                .blockConverter(c.block(), c.mode(), c.toBlock());
        int n = c.block().elements();
        int perBlock = base.perBlock() + n;
        if (perBlock != c.inputsPerBlock()) {
            throw new IllegalStateException(c.pairName() + ": " + base.perBlock() + " values and " + n
                    + " random lanes per block, the case takes " + c.inputsPerBlock());
        }
        long full = 1L << c.block().random().width();
        SplittableRandom random = new SplittableRandom(seed ^ (31L * c.block().name().hashCode() + "random-operand".hashCode()));
        List<long[]> blocks = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        for (int k = 0; k < base.count(); k++) {
            long[] in = Arrays.copyOf(Arrays.copyOfRange(base.values(), k * base.perBlock(), (k + 1) * base.perBlock()), perBlock);
            long[] least = carries(defaults, in, n, full);
            String tag = base.tags()[k];
            boolean tensor = c.block().isTensor();
            if (!tensor) {
                blocks.add(lanes(in, n, j -> 0));
                tags.add(tag);
                blocks.add(lanes(in, n, j -> full - 1));
                tags.add(tag);
            }
            for (int phase = 0; phase < (tensor || Arrays.stream(least).anyMatch(t -> t >= 0) ? 2 : 0); phase++) {
                int p = phase;
                blocks.add(lanes(in, n, j -> least[j] < 0 ? random.nextLong(full) : (j + p) % 2 == 0 ? least[j] : least[j] - 1));
                tags.add("carry");
            }
            if (!tensor) {
                blocks.add(lanes(in, n, j -> random.nextLong(full)));
                tags.add("random-operand");
            }
        }
        long[] flat = new long[blocks.size() * perBlock];
        for (int i = 0; i < blocks.size(); i++) {
            System.arraycopy(blocks.get(i), 0, flat, i * perBlock, perBlock);
        }
        return new BlockCoverage.Blocks(flat, tags.toArray(String[]::new), perBlock);
    }

    private interface Lane {
        long of(int element);
    }

    /** in with its last n values (the random lanes) set element by element. */
    private static long[] lanes(long[] in, int n, Lane lane) {
        long[] out = in.clone();
        for (int j = 0; j < n; j++) {
            out[in.length - n + j] = lane.of(j);
        }
        return out;
    }

    /**
     * Per element, the least random bits that round it up (the element's output differs from the one all
     * zeros give), or -1 where no random bits change it (an exact value, a saturated one, a NaN scale's
     * block). Elements are the last n outputs; all are bisected together, one conversion per step.
     */
    private static long[] carries(BlockConverter c, long[] in, int n, long full) {
        long[] down = convert(c, lanes(in, n, j -> 0));
        long[] up = convert(c, lanes(in, n, j -> full - 1));
        int at = down.length - n;
        long[] low = new long[n];
        long[] high = new long[n];
        for (int j = 0; j < n; j++) {
            high[j] = down[at + j] == up[at + j] ? -1 : full - 1;
        }
        for (long span = full; span > 1; span >>>= 1) { // each step halves every interval
            long[] mid = new long[n];
            for (int j = 0; j < n; j++) {
                mid[j] = high[j] < 0 ? 0 : (low[j] + high[j]) >>> 1;
            }
            long[] out = convert(c, lanes(in, n, j -> mid[j]));
            for (int j = 0; j < n; j++) {
                if (high[j] >= 0 && high[j] - low[j] > 1) {
                    if (out[at + j] == down[at + j]) {
                        low[j] = mid[j];
                    } else {
                        high[j] = mid[j];
                    }
                }
            }
        }
        return high;
    }

    private static long[] convert(BlockConverter c, long[] in) {
        long[] out = new long[c.outputsPerBlock()];
        c.apply(in, 0, out, 0, 1);
        return out;
    }
}
