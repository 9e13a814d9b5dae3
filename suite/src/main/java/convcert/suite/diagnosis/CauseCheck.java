package convcert.suite.diagnosis;

import convcert.faults.Faulty;
import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * Runs candidate causes (faulty implementations of the case) over the inputs that could refute them and keeps,
 * per cell, how many results each changes and the digest of those changed results, as MismatchLog keeps the
 * device's: a cause equal to the device in a cell has the same count and digest there. A stored vector set is
 * read whole. An exhaustive range is read first in a sample (2^20 inputs, half on a grid whose low bits are zero,
 * where ties and exact values lie, half spread by an odd step, whose low bits vary), which shows the causes
 * that change results where the device passed; those are then run only over the cells that hold mismatches (a
 * scope is all they can have), the others over every input of the range: chunks on every core, each in pieces
 * that stay in the processor's caches while the reference and every candidate convert them.
 */
final class CauseCheck {

    /** Inputs a core takes at a time. */
    static final int CHUNK = 1 << 20;
    /** Inputs converted and compared at a time within a chunk. */
    private static final int PIECE = 1 << 14;

    /** One candidate's changes: per cell, count and digest; extra: cells where it changed a pass. */
    static final class Changes {
        final String fault;
        final String description;
        final Faulty faulty;
        final long[] count;
        final long[] digest;
        final boolean[] extra;
        /** Whether every input was read (else only the cells with mismatches, and the sample). */
        boolean whole = true;
        /** Passes seen changed in the sample, for a cause read only where the mismatches are. */
        long sampled;

        Changes(String fault, String description, Faulty faulty, int cells) {
            this.fault = fault;
            this.description = description;
            this.faulty = faulty;
            this.count = new long[cells];
            this.digest = new long[cells];
            this.extra = new boolean[cells];
        }
    }

    private final Converter reference;
    private final Judge judge;
    private final Cells cells;
    private final MismatchLog log;

    CauseCheck(Converter reference, Judge judge, MismatchLog log) {
        this.reference = reference;
        this.judge = judge;
        this.cells = log.cells;
        this.log = log;
    }

    /** Every vector of a stored set, every candidate. */
    void set(List<Changes> candidates, VectorSource vectors) {
        long[] in = new long[CHUNK];
        long[] expected = new long[CHUNK];
        long[] out = new long[CHUNK];
        for (int n; (n = vectors.next(in, expected)) > 0; ) {
            for (Changes k : candidates) {
                k.faulty.apply(in, expected, out, 0, n);
                Tally t = new Tally(0, cells.count());
                t.record(k, in, expected, out, n, null);
                t.into(k);
            }
        }
    }

    /** The inputs [first, end) of an exhaustive case, their expected values computed by the reference. */
    void range(List<Changes> candidates, long first, long end) {
        long n = end - first;
        int samples = (int) Math.min(CHUNK, n);
        long[] in = new long[samples];
        long[] expected = new long[samples];
        long[] out = new long[samples];
        long stride = Math.max(1, n / (samples / 2));
        for (int j = 0; j < samples; j++) { // half on a grid (ties, exact values: low bits zero), half by an odd step
            in[j] = first + (n <= CHUNK ? j : j % 2 == 0 ? Math.min(n - 1, j / 2 * stride) : Math.floorMod(j * 0x9E3779B1L, n));
        }
        reference.applyParallel(in, 0, expected, 0, samples);
        for (Changes k : candidates) {
            IntStream.range(0, 2).parallel().forEach(h -> k.faulty.apply(in, expected, out, h * samples / 2,
                    (h + 1) * samples / 2));
            for (int j = 0; j < samples; j++) {
                int c = cells.of(in[j]);
                if (log.count[c] == 0 && !judge.same(reference.destination(), expected[j], out[j])) {
                    k.sampled++;
                    k.extra[c] = true;
                    k.whole = false;
                }
            }
        }
        long chunks = (end - first + CHUNK - 1) / CHUNK;
        LongStream.range(0, chunks).parallel().forEach(j -> chunk(candidates, first + j * CHUNK,
                (int) Math.min(CHUNK, end - first - j * CHUNK)));
    }

    /** One chunk [at, at + n), for the candidates that must read it (all of them, or where mismatches are), piece by piece. */
    private void chunk(List<Changes> candidates, long at, int n) {
        int from = cells.of(at);
        int to = cells.of(at + n - 1);
        boolean mismatches = IntStream.rangeClosed(from, to).anyMatch(c -> log.count[c] > 0);
        List<Changes> reading = candidates.stream().filter(k -> k.whole || mismatches).toList();
        if (reading.isEmpty()) {
            return;
        }
        long[] in = new long[PIECE];
        long[] right = new long[PIECE];
        long[] out = new long[PIECE];
        Tally[] tallies = new Tally[reading.size()];
        for (int k = 0; k < tallies.length; k++) {
            tallies[k] = new Tally(from, to - from + 1);
        }
        for (long p = at; p < at + n; p += PIECE) {
            int m = (int) Math.min(PIECE, at + n - p);
            reference.applyConsecutive(p, in, right, 0, m);
            for (int k = 0; k < tallies.length; k++) {
                Changes c = reading.get(k);
                c.faulty.apply(in, right, out, 0, m);
                tallies[k].record(c, in, right, out, m, c.whole ? null : log.count);
            }
        }
        synchronized (this) {
            for (int k = 0; k < tallies.length; k++) {
                tallies[k].into(reading.get(k));
            }
        }
    }

    /** One reader's counts and digests over the cells [first, first + span). */
    private final class Tally {
        private final int first;
        private final long[] count;
        private final long[] digest;

        Tally(int first, int span) {
            this.first = first;
            this.count = new long[span];
            this.digest = new long[span];
        }

        /** A candidate's changed results among [0, n); only: the cells counted (those with mismatches), or all. */
        void record(Changes k, long[] in, long[] right, long[] out, int n, long[] only) {
            FormatCodec dst = reference.destination();
            for (int i = 0; i < n; i++) {
                if (right[i] != out[i] && !judge.same(dst, right[i], out[i])) {
                    int c = cells.of(in[i]);
                    if (only == null || only[c] != 0) {
                        count[c - first]++;
                        digest[c - first] += MismatchLog.pair(in[i], judge.canonical(dst, out[i]));
                    }
                }
            }
        }

        void into(Changes k) {
            for (int c = 0; c < count.length; c++) {
                k.count[first + c] += count[c];
                k.digest[first + c] += digest[c];
                k.extra[first + c] |= count[c] > 0 && log.count[first + c] == 0;
            }
        }
    }
}
