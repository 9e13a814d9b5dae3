package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.suite.diagnosis.VectorSource;

/** Where a conversion case's inputs and expected results come from, a batch at a time. */
public interface Batches extends VectorSource {

    /** Values per adapter call (suite/ADAPTERS.md promises no more). */
    int BATCH = 1 << 16;

    /** Values per chunk of expected values: large, so that computing them in parallel pays. */
    int CHUNK = 1 << 20;

    /** Whether the expected values are the reference's computation now (not stored golden values). */
    default boolean computed() {
        return false;
    }

    /** Stored vectors: inputs and golden expected values. */
    static Batches of(long[] inputs, long[] expected) {
        int[] position = {0};
        return (in, exp) -> {
            int n = Math.min(in.length, inputs.length - position[0]);
            System.arraycopy(inputs, position[0], in, 0, n);
            System.arraycopy(expected, position[0], exp, 0, n);
            position[0] += n;
            return n;
        };
    }

    /** Stored inputs whose expected values the reference computes now. */
    static Batches recomputed(long[] inputs, Converter reference) {
        int[] position = {0};
        return computed((in, exp) -> {
            int n = Math.min(in.length, inputs.length - position[0]);
            System.arraycopy(inputs, position[0], in, 0, n);
            reference.applyParallel(in, 0, exp, 0, n);
            position[0] += n;
            return n;
        });
    }

    /** Every input in [first, end), the expected values computed by the reference on the fly, on every core. */
    static Batches range(long first, long end, Converter reference) {
        return range(first, end, reference, true);
    }

    /**
     * As above; parallel false: on the calling thread alone, for a part of a case whose other parts run
     * beside it (--jobs), where splitting each chunk over the cores again only moves it between caches.
     */
    static Batches range(long first, long end, Converter reference, boolean parallel) {
        return new Range(first, end, reference, parallel);
    }

    /**
     * Every input in [first, end) with its expected value, or (inputs) without: the inputs of an exhaustive
     * case, which the expected-value cache knows by their range (ExpectedCache).
     */
    final class Range implements Batches {
        private final long end;
        private final Converter reference;
        private final boolean parallel;
        private long next;

        private Range(long first, long end, Converter reference, boolean parallel) {
            this.next = first;
            this.end = end;
            this.reference = reference;
            this.parallel = parallel;
        }

        @Override
        public int next(long[] in, long[] expected) {
            int n = (int) Math.min(in.length, end - next);
            expected(next, in, expected, n);
            next += n;
            return n;
        }

        /** Passes over the next n inputs (at most those left), whose values the caller makes itself; how many. */
        int skip(int n) {
            int k = (int) Math.min(n, end - next);
            next += k;
            return k;
        }

        /** The inputs first, first + 1, ... into in[0..n) and their expected values into expected[0..n). */
        void expected(long first, long[] in, long[] expected, int n) {
            if (parallel) {
                reference.applyConsecutiveParallel(first, in, expected, n);
            } else {
                reference.applyConsecutive(first, in, expected, 0, n);
            }
        }

        /** The first input not yet given. */
        long position() {
            return next;
        }

        /** The end of the range (exclusive). */
        long end() {
            return end;
        }

        @Override
        public boolean computed() {
            return true;
        }
    }

    private static Batches computed(Batches batches) {
        return new Batches() {
            @Override
            public int next(long[] in, long[] expected) {
                return batches.next(in, expected);
            }

            @Override
            public boolean computed() {
                return true;
            }
        };
    }
}
