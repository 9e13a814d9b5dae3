package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.PackedOperations;
import convcert.vectors.Progress;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Conversion cases through PackedOperations (an adapter with memory of its own: a process device that
 * said SHARED, a library in convcert-host), two batches in flight: while the implementation converts one
 * slot, the suite fills the other and checks the last answer. A batch of up to CHUNK values is computed
 * in pieces of PIECE that stay in the processor's caches while they are packed into a kept copy (inputs
 * and expected values, for the comparison and the report). A batch's inputs are copied into its slot,
 * its outputs set to the complements of the expected values (so an output left unwritten is a mismatch
 * whatever the format), and its answer compared packed in one vectorised mismatch, element by element
 * only where that finds a difference.
 *
 * <p>Several cases alike (the variants of a state: the forms and CTRL settings that select it, whose
 * expected values are the same) run in lockstep: each chunk is computed once and converted once per case.
 */
final class PackedRunner {

    /**
     * Values per batch: small enough that a part's arrays stay near the processor (2^20 measured 10-15%
     * slower end to end than 2^18 on this project's 2-core machine), large enough that a pipe line and a
     * thread handoff per batch cost nothing (docs/performance.md, issue 26).
     */
    static final int CHUNK = 1 << 18;

    /** Values computed and packed at a time within a batch. */
    static final int PIECE = 1 << 14;

    private PackedRunner() {
    }

    /** Whether a case can take this path: no lane, no flags, and an adapter whose packed memory holds a batch. */
    static boolean applies(AdapterInstance adapter, Converter reference, boolean flags) {
        return reference.lane() == null && !flags && adapter.declaring() instanceof PackedOperations p && p.packed()
                && p.slotCapacity() >= CHUNK;
    }

    /**
     * Runs the cases of keys (alike: one reference, one stream of batches) into their tallies, in
     * lockstep; an adapter failure's message, or null. The batch of 0 comes before (a stopped device starts
     * again, and nothing may be pending), not after: the caller sends it per case.
     */
    static String run(AdapterInstance adapter, List<CaseKey> keys, Converter reference, Batches batches, Progress progress,
                      List<Tally> tallies) {
        int inBytes = VectorBytes.of(reference.source().format().width());
        int outBytes = VectorBytes.of(reference.destination().format().width());
        long[] in = new long[PIECE];
        long[] expected = new long[PIECE];
        // by the parity of the chunk: batches of one chunk go out while the last of the one before is checked
        Packing[] packedInputs = {new Packing(inBytes, CHUNK), new Packing(inBytes, CHUNK)};
        Packing[] packedExpected = {new Packing(outBytes, CHUNK), new Packing(outBytes, CHUNK)};
        Packing scratch = new Packing(outBytes, CHUNK); // widens outputs
        long[] actual = new long[CHUNK];
        long[] wholeIn = new long[CHUNK];
        long[] wholeExpected = new long[CHUNK];
        MemorySegment[][] slots = new MemorySegment[PackedOperations.SLOTS][2];
        try {
            adapter.call(a -> {
                a.convert(keys.getFirst(), new long[0], new long[0], 0);
                PackedOperations p = (PackedOperations) a;
                for (int k = 0; k < PackedOperations.SLOTS; k++) {
                    slots[k][0] = MemorySegment.ofBuffer(p.inputs(k));
                    slots[k][1] = MemorySegment.ofBuffer(p.outputs(k));
                }
            }, () -> "the batch of 0 before the case");
            int parity = 1;
            int n = 0;
            int next = keys.size(); // the key of the next batch; past the last: a new chunk first
            int slot = 0;
            int[] pending = null; // the batch in flight: slot, key, chunk parity, count
            while (true) {
                if (next == keys.size()) {
                    parity ^= 1;
                    n = fill(batches, in, expected, packedInputs[parity], packedExpected[parity]);
                    next = 0;
                }
                int s = slot;
                int count = n;
                CaseKey key = keys.get(next);
                Packing inputs = packedInputs[parity];
                Packing want = packedExpected[parity];
                int[] last = pending;
                adapter.call(a -> { // one handoff per batch: start this slot, then wait for the other
                    PackedOperations p = (PackedOperations) a;
                    if (count > 0) {
                        inputs.copyTo(slots[s][0], count);
                        want.complementTo(slots[s][1], count);
                        p.start(key, s, count);
                    }
                    if (last != null) {
                        p.finish(keys.get(last[1]), last[0]);
                    }
                }, () -> last != null ? "batch of " + last[3] : "start of a batch of " + count);
                if (last != null) {
                    Packing lastWant = packedExpected[last[2]];
                    Tally t = tallies.get(last[1]);
                    if (lastWant.mismatch(slots[last[0]][1], last[3]) >= 0) {
                        scratch.widen(slots[last[0]][1], last[3], actual);
                        packedInputs[last[2]].get(last[3], wholeIn);
                        lastWant.get(last[3], wholeExpected);
                        t.judge(wholeIn, wholeExpected, actual, null, 0, last[3]);
                    }
                    t.vectors += last[3];
                    if (progress != null) {
                        progress.batchDone(last[3]);
                    }
                }
                if (count == 0) {
                    return null;
                }
                pending = new int[] {s, next, parity, count};
                slot = 1 - s;
                next++;
            }
        } catch (AdapterException e) {
            adapter.recover();
            return e.getMessage() + " (after " + tallies.getFirst().vectors + " vectors)";
        }
    }

    /** The next chunk of inputs and expected values, in pieces, packed into the kept copies; its size, 0 at the end. */
    private static int fill(Batches batches, long[] in, long[] expected, Packing inputs, Packing want) {
        int n = 0;
        while (n < CHUNK) {
            int k = batches.next(in, expected);
            if (k == 0) {
                break;
            }
            inputs.set(in, k, n);
            want.set(expected, k, n);
            n += k;
            if (k < in.length) {
                break;
            }
        }
        return n;
    }
}
