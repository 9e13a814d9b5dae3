package convcert.suite.runner;

import convcert.reference.BlockConverter;
import convcert.reference.FormatCodec;
import convcert.spi.AdapterException;
import convcert.spi.BlockOperations;
import convcert.spi.CaseKey;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a case of a block-scaled format (OCP MX): the vectors are blocks (or whole tensors), a block with any
 * wrong value is one mismatch, and each wrong value counts in the kinds. Elements under a NaN scale mean
 * nothing and are not judged. A first mismatch shows the inputs of the first wrong value's block.
 */
final class BlockRunner {

    /** Blocks per adapter call, and values: a tensor case's blocks are whole tensors. */
    static final int BLOCK_BATCH = 2048;
    static final int BATCH_VALUES = 1 << 20;

    private final Comparison comparison;
    private final int firstMismatches;

    BlockRunner(Comparison comparison, int firstMismatches) {
        this.comparison = comparison;
        this.firstMismatches = firstMismatches;
    }

    /** Wrong blocks kept per case for the diagnosis. */
    static final int DIAGNOSED = 1 << 12;

    /** A case's result, with the outputs of its first wrong blocks (block index -> outputs) for the diagnosis. */
    record Outcome(CaseResult result, Map<Integer, long[]> wrong) {
    }

    /** expected holds the reference's outputs for inputs, blocks of them. */
    Outcome run(AdapterInstance adapter, CaseKey key, BlockConverter reference, long[] inputs, long[] expected,
                   int blocks) {
        long start = System.nanoTime();
        if (!adapter.applies(key)) {
            return new Outcome(CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter"), Map.of());
        }
        if (!(adapter.declaring() instanceof BlockOperations)) {
            return new Outcome(CaseResult.without(key, Status.ERROR, "the adapter lists " + key.name()
                    + " among its capabilities but does not implement BlockOperations"), Map.of());
        }
        int in = reference.inputsPerBlock();
        int out = reference.outputsPerBlock();
        Blocks t = new Blocks();
        int batchBlocks = Math.max(1, Math.min(BLOCK_BATCH, BATCH_VALUES / Math.max(in, out))); // a tensor is a block
        for (int done = 0; done < blocks; ) {
            int n = Math.min(batchBlocks, blocks - done);
            long[] batch = Arrays.copyOfRange(inputs, done * in, (done + n) * in);
            long[] actual = new long[n * out];
            Arrays.fill(actual, ValueRunner.POISON);
            try {
                adapter.call(a -> ((BlockOperations) a).convertBlocks(key, batch, actual, n), () -> n + " blocks");
            } catch (AdapterException e) {
                adapter.recover();
                return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, done, t.mismatches, t.first, t.rules, t.kinds,
                        e.getMessage() + " (after " + done + " blocks)", ValueRunner.millis(start)), Map.of());
            }
            for (int b = 0; b < n; b++) {
                t.compare(reference, expected, actual, batch, done, b);
            }
            done += n;
        }
        if (blocks == 0) {
            return new Outcome(CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify"), Map.of());
        }
        try { // a batch of none: the adapter shows nothing of this case is still pending
            adapter.call(a -> ((BlockOperations) a).convertBlocks(key, new long[0], new long[0], 0),
                    () -> "the batch of 0 after the case");
        } catch (AdapterException e) {
            adapter.recover();
            return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, blocks, t.mismatches, t.first, t.rules, t.kinds,
                    e.getMessage() + " (after all " + blocks + " blocks)", ValueRunner.millis(start)), Map.of());
        }
        return new Outcome(new CaseResult(key, t.mismatches == 0 ? Status.PASS : Status.FAIL, blocks, t.mismatches, t.first,
                t.rules, t.kinds, null, ValueRunner.millis(start)), t.wrongBlocks);
    }

    /** A case's mismatching blocks so far: their count, kinds, the first ones shown, and the outputs kept for the diagnosis. */
    private final class Blocks {
        long mismatches;
        final List<FirstMismatch> first = new ArrayList<>();
        final Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        List<String> rules = List.of();
        final Map<Integer, long[]> wrongBlocks = new LinkedHashMap<>();

        /** Block b of a batch that starts at block done: its outputs against the expected ones. */
        void compare(BlockConverter reference, long[] expected, long[] actual, long[] batch, int done, int b) {
            int in = reference.inputsPerBlock();
            int out = reference.outputsPerBlock();
            int e = (done + b) * out;
            List<FirstMismatch.BlockValue> wrong = new ArrayList<>();
            int wrongValues = 0;
            int firstWrong = -1;
            for (int i = 0; i < out; i++) {
                long want = expected[e + i];
                long got = actual[b * out + i];
                FormatCodec codec = reference.outputCodec(i);
                if (!reference.compared(expected, e, i) || comparison.same(codec, want, got)) {
                    continue;
                }
                MismatchKind kind = MismatchClassifier.classify(codec, want, got);
                kinds.merge(kind, 1L, Long::sum);
                // the value whose block the report shows: the first wrong one that has a block (not a layout's padding)
                boolean shown = mismatches < firstMismatches || rules.isEmpty();
                firstWrong = firstWrong < 0 || shown && reference.inputsOf(firstWrong).isEmpty()
                        && !reference.inputsOf(i).isEmpty() ? i : firstWrong;
                if (wrongValues++ < FirstMismatch.Block.SHOWN) {
                    wrong.add(new FirstMismatch.BlockValue(reference.part(i), Shows.of(codec, want), Shows.of(codec, got),
                            kind));
                }
            }
            if (wrongValues > 0) {
                mismatches++;
                if (wrongBlocks.size() < DIAGNOSED) {
                    wrongBlocks.put(done + b, Arrays.copyOfRange(actual, b * out, (b + 1) * out));
                }
                if (first.size() < firstMismatches) {
                    first.add(new FirstMismatch.Block(done + b, wrong, wrongValues - wrong.size(),
                            inputsInHex(reference, batch, b * in, firstWrong)));
                }
                if (rules.isEmpty()) {
                    rules = reference.explain(batch, b * in, firstWrong);
                }
            }
        }
    }

    /** The inputs the first wrong output depends on: the block's, or in a tensor its own block's. */
    private static List<String> inputsInHex(BlockConverter c, long[] in, int offset, int firstWrong) {
        return c.inputsOf(firstWrong).stream().map(i -> c.inputFormat(i).hex(in[offset + i])).toList();
    }
}
