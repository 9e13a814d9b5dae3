package convcert.suite.runner;

import convcert.common.Progress;
import convcert.reference.Converter;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.PackedOperations;
import convcert.suite.model.MismatchKind;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Conversion cases through PackedOperations (an adapter with memory of its own: a process device that
 * said SHARED, a library in convcert-host), two batches in flight: while the implementation converts one
 * slot, the suite fills the other and checks the last answer. A chunk of up to CHUNK values is computed
 * in pieces of PIECE that stay in the processor's caches while they are packed into a kept copy (inputs
 * and expected values, for the comparison and the report).
 *
 * <p>Nothing the implementation can read reveals an expected value (Poison): a batch's inputs go into
 * its slot rotated by a secret amount, its outputs are filled with a secret poison, and its answer is
 * compared packed in one vectorised mismatch, element by element only where that finds a difference.
 * An output that reads as the poison is asked again (Doubtful) under another.
 *
 * <p>Several cases alike (the variants of a state: the forms and CTRL settings that select it, whose
 * expected values are the same) run in lockstep: each chunk is computed once and converted once per case,
 * each time in another order, so an answer copied from another variant's batch is wrong wherever the
 * chunk's expected values differ.
 *
 * <p>With an expected-value cache (ExpectedCache) an exhaustive chunk whose digest is kept is not
 * computed: its answer, back in order, is hashed and compared with the digest, and computed and judged
 * in full only where they differ or where the chunk is drawn for verification after it answered.
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

    /** What goes into a slot: a chunk's batch for one case, or a case's doubtful elements asked again. */
    private sealed interface Item permits Chunk, Again {
        int key();

        int count();
    }

    /** The chunk of parity's batch for case key: count elements rotated by rotation, outputs poisoned with poison. */
    private record Chunk(int key, int parity, int count, int rotation, long poison) implements Item {
    }

    /** Doubtful elements of case key, asked again: each output poisoned with its first poison, lowest bit flipped. */
    private record Again(int key, Doubtful.Batch elements) implements Item {
        @Override
        public int count() {
            return elements.count();
        }
    }

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
                      List<Tally> tallies, ExpectedCache cache) {
        Lockstep lockstep = new Lockstep(adapter, keys, reference, batches, progress, tallies, cache);
        try {
            return lockstep.run();
        } finally {
            if (lockstep.digests != null) {
                lockstep.digests.store();
            }
        }
    }

    /** One run's state: the kept chunks by parity, the slots, each case's doubtful elements. */
    private static final class Lockstep {
        private final AdapterInstance adapter;
        private final List<CaseKey> keys;
        private final Batches batches;
        private final Progress progress;
        private final List<Tally> tallies;
        private final Poison poison;
        private final Packing[] packedInputs;
        private final Packing[] packedExpected;
        private final Packing scratch;
        private final Packing againIn;
        private final long[] in = new long[PIECE];
        private final long[] expected = new long[PIECE];
        private final long[] actual = new long[CHUNK];
        private final long[] wholeIn = new long[CHUNK];
        private final long[] wholeExpected = new long[CHUNK];
        private final MemorySegment[][] slots = new MemorySegment[PackedOperations.SLOTS][2];
        private final Doubtful[] doubtful;
        private int parity = 1;
        private int n;
        private int next;
        private final Order order = new Order();
        private boolean ended;
        /** The case's kept digests (null: no cache, or inputs that are not a range) and its range of inputs (or null). */
        private final ExpectedCache.Digests digests;
        private final Batches.Range range;
        /** By parity: the chunk's first input, its kept digest, whether its expected values are known (computed). */
        private final long[] chunkFirst = new long[2];
        private final long[] kept = new long[2];
        private final boolean[] known = new boolean[2];

        Lockstep(AdapterInstance adapter, List<CaseKey> keys, Converter reference, Batches batches, Progress progress,
                 List<Tally> tallies, ExpectedCache cache) {
            this.adapter = adapter;
            this.keys = keys;
            this.batches = batches;
            this.progress = progress;
            this.tallies = tallies;
            int inBytes = VectorBytes.of(reference.source().format().width());
            int outBytes = VectorBytes.of(reference.destination().format().width());
            this.poison = new Poison(reference.destination(), tallies.getFirst().comparison(), outBytes);
            // by the parity of the chunk: batches of one chunk go out while the last of the one before is checked
            this.packedInputs = new Packing[] {new Packing(inBytes, CHUNK), new Packing(inBytes, CHUNK)};
            this.packedExpected = new Packing[] {new Packing(outBytes, CHUNK), new Packing(outBytes, CHUNK)};
            this.scratch = new Packing(outBytes, CHUNK); // widens outputs, packs the poisons of elements asked again
            this.againIn = new Packing(inBytes, CHUNK);
            this.doubtful = new Doubtful[keys.size()];
            for (int k = 0; k < doubtful.length; k++) {
                doubtful[k] = new Doubtful();
            }
            this.next = keys.size();
            this.range = batches instanceof Batches.Range r ? r : null;
            this.digests = range != null && cache != null ? cache.of(reference, keys.getFirst().stateName(), inBytes, outBytes)
                    : null;
        }

        String run() {
            try {
                adapter.call(a -> {
                    a.convert(keys.getFirst(), new long[0], new long[0], 0);
                    PackedOperations p = (PackedOperations) a;
                    for (int k = 0; k < PackedOperations.SLOTS; k++) {
                        slots[k][0] = MemorySegment.ofBuffer(p.inputs(k));
                        slots[k][1] = MemorySegment.ofBuffer(p.outputs(k));
                    }
                }, () -> "the batch of 0 before the case");
                int slot = 0;
                Item pending = null; // the batch in flight, in the other slot
                while (true) {
                    Item item = next();
                    Item last = pending;
                    if (item == null && last == null) {
                        return null;
                    }
                    int s = slot;
                    int lastSlot = 1 - s;
                    adapter.call(a -> { // one handoff per batch: start this slot, then wait for the other
                        PackedOperations p = (PackedOperations) a;
                        if (item != null) {
                            put(item, s);
                            p.start(keys.get(item.key()), s, item.count());
                        }
                        if (last != null) {
                            p.finish(keys.get(last.key()), lastSlot);
                        }
                    }, () -> last != null ? "batch of " + last.count() : "start of a batch of " + item.count());
                    if (last != null) {
                        judge(last, lastSlot);
                    }
                    pending = item;
                    slot = item != null ? 1 - s : s;
                }
            } catch (AdapterException e) {
                adapter.recover();
                return e.getMessage() + " (after " + tallies.getFirst().vectors + " vectors)";
            }
        }

        /** What goes next: doubtful elements once a slot's worth gathered (or the chunks ended), else the next batch; null: nothing now. */
        private Item next() {
            for (int k = 0; k < doubtful.length; k++) {
                if (doubtful[k].size() >= CHUNK || ended && doubtful[k].size() > 0) {
                    return new Again(k, doubtful[k].take(CHUNK));
                }
            }
            if (!ended && next == keys.size()) {
                parity ^= 1;
                n = fill(parity);
                next = 0;
                ended = n == 0;
            }
            if (ended) {
                return null;
            }
            return new Chunk(next++, parity, n, order.next(n), poison.next());
        }

        /** Fills a slot with an item's inputs and poisoned outputs. */
        private void put(Item item, int s) {
            switch (item) {
                case Chunk c -> {
                    packedInputs[c.parity()].copyToRotated(slots[s][0], c.count(), c.rotation());
                    scratch.fill(slots[s][1], c.count(), c.poison());
                }
                case Again a -> {
                    Doubtful.Batch e = a.elements();
                    againIn.set(e.in(), e.count(), 0);
                    againIn.copyTo(slots[s][0], e.count());
                    long[] again = new long[e.count()];
                    for (int k = 0; k < again.length; k++) {
                        again[k] = e.poison()[k] ^ 1;
                    }
                    scratch.set(again, again.length, 0);
                    scratch.copyTo(slots[s][1], again.length);
                }
            }
        }

        /** Judges an answered item in slot s. */
        private void judge(Item item, int s) {
            Tally t = tallies.get(item.key());
            MemorySegment out = slots[s][1];
            switch (item) {
                case Chunk c -> {
                    if (!known[c.parity()] && answeredAsKept(c, t, out)) {
                        break;
                    }
                    Packing want = packedExpected[c.parity()];
                    if (want.sameRotated(out, c.count(), c.rotation())) {
                        doubtful(want, c); // every output is its expected value
                    } else {
                        scratch.widenRotated(out, c.count(), c.rotation(), actual);
                        packedInputs[c.parity()].get(c.count(), wholeIn);
                        want.get(c.count(), wholeExpected);
                        for (int k = 0; k < c.count(); k++) {
                            if (actual[k] == c.poison()) {
                                if (poison.certain) {
                                    actual[k] = MismatchKind.UNWRITTEN;
                                } else {
                                    doubtful[c.key()].add(wholeIn[k], wholeExpected[k], c.poison(), t.agrees(wholeExpected[k], actual[k]));
                                }
                            }
                        }
                        t.judge(wholeIn, wholeExpected, actual, null, 0, c.count());
                    }
                    t.vectors += c.count();
                    if (progress != null) {
                        progress.batchDone(c.count());
                    }
                }
                case Again a -> {
                    Doubtful.Batch e = a.elements();
                    scratch.widenRotated(out, e.count(), 0, actual);
                    for (int k = 0; k < e.count(); k++) {
                        if (e.agreed()[k] && actual[k] != e.poison()[k]) { // right the first time only by being left alone
                            t.unwritten(e.in()[k], e.expected()[k]);
                        }
                    }
                }
            }
        }

        /**
         * A chunk judged right (answer holds its expected values, in order): with a poison that may be an
         * answer, the elements that read as it were that expected value, or left unwritten: asked again.
         */
        private void doubtful(Packing answer, Chunk c) {
            if (!poison.certain) {
                Packing inputs = packedInputs[c.parity()];
                answer.indexesOf(c.count(), c.poison(), k -> doubtful[c.key()].add(inputs.at(k), c.poison(), c.poison(), true));
            }
        }

        /**
         * A chunk whose digest is kept: whether its answer, back in order, hashes to that digest (judged
         * right: every output is its expected value) and the chunk was not drawn for verification; else
         * its expected values are computed now, a kept digest they contradict an error of the case.
         */
        private boolean answeredAsKept(Chunk c, Tally t, MemorySegment out) {
            int p = c.parity();
            scratch.unrotate(out, c.count(), c.rotation());
            if (scratch.hash(c.count()) == kept[p] && !digests.sample()) {
                doubtful(scratch, c); // the answer, back in order, is the expected values
                t.vectors += c.count();
                if (progress != null) {
                    progress.batchDone(c.count());
                }
                digests.taken();
                return true;
            }
            range.expected(chunkFirst[p], wholeIn, wholeExpected, c.count());
            packedExpected[p].set(wholeExpected, c.count(), 0);
            known[p] = true;
            long digest = packedExpected[p].hash(c.count());
            digests.made(chunkFirst[p], c.count(), digest, true);
            if (digest != kept[p]) {
                String error = "the expected-value cache " + digests.file() + " holds digest " + Long.toHexString(kept[p])
                        + " for the " + c.count() + " inputs from 0x" + Long.toHexString(chunkFirst[p]) + "; the reference "
                        + "computes " + Long.toHexString(digest) + " (the file was altered or made by other code; corrected "
                        + "now; --verify-cache checks every chunk)";
                tallies.forEach(each -> each.error = each.error != null ? each.error : error);
            }
            return false;
        }

        /**
         * The next chunk of inputs and, unless the cache keeps its digest, expected values, packed into the
         * kept copies of parity p; its size, 0 at the end.
         */
        private int fill(int p) {
            if (digests == null) {
                known[p] = true;
                return compute(p);
            }
            chunkFirst[p] = range.position();
            int count = (int) Math.min(CHUNK, range.end() - chunkFirst[p]);
            Long digest = count > 0 ? digests.digest(chunkFirst[p], count) : null;
            known[p] = digest == null;
            if (digest != null) {
                kept[p] = digest;
                packedInputs[p].consecutive(chunkFirst[p], range.skip(count), 0); // packed as they are, never narrowed
                return count;
            }
            int size = compute(p);
            if (size > 0) {
                digests.made(chunkFirst[p], size, packedExpected[p].hash(size), false);
            }
            return size;
        }

        /** The next chunk of inputs and expected values, in pieces, packed into the kept copies of parity p; its size. */
        private int compute(int p) {
            Packing inputs = packedInputs[p];
            Packing want = packedExpected[p];
            int size = 0;
            while (size < CHUNK) {
                int k = batches.next(in, expected);
                if (k == 0) {
                    break;
                }
                if (range != null) { // consecutive: packed as they are, not narrowed from long[]
                    inputs.consecutive(in[0], k, size);
                } else {
                    inputs.set(in, k, size);
                }
                want.set(expected, k, size);
                size += k;
                if (k < in.length) {
                    break;
                }
            }
            return size;
        }
    }
}
