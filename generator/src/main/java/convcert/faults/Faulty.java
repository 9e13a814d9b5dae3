package convcert.faults;

import convcert.reference.Converter;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * A faulty implementation of one case: input bits to output bits. The diagnosis runs a fault over every
 * input of an exhaustive case, so a fault built on converters converts batches through their fast paths
 * (a scalar loop over the generic path would cost a minute per fault for 2^32 inputs), and one that changes
 * the case's right results afterwards takes them from the caller, who holds them already.
 */
public interface Faulty {

    long apply(long input);

    /**
     * in[from..to) into out[from..to). right: the case's own results for those inputs (the expected values a
     * diagnosis holds), or null where the caller has none.
     */
    default void apply(long[] in, long[] right, long[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            out[i] = apply(in[i]);
        }
    }

    /** What a result becomes, knowing its input: an output fault. */
    interface Result {
        long of(long input, long result);
    }

    /** Exactly a converter (another mode, saturation, decision or CTRL setting). */
    static Faulty of(Converter c) {
        return new Faulty() {
            @Override
            public long apply(long input) {
                return c.apply(input);
            }

            @Override
            public void apply(long[] in, long[] right, long[] out, int from, int to) {
                c.apply(in, from, out, from, to - from);
            }
        };
    }

    /** The case's own converter's results (right), changed by an output fault. */
    static Faulty after(Converter right, Result change) {
        return new Faulty() {
            @Override
            public long apply(long input) {
                return change.of(input, right.apply(input));
            }

            @Override
            public void apply(long[] in, long[] results, long[] out, int from, int to) {
                if (results == null) {
                    right.apply(in, from, out, from, to - from);
                    results = out;
                }
                for (int i = from; i < to; i++) {
                    out[i] = change.of(in[i], results[i]);
                }
            }
        };
    }

    /** A converter given changed inputs: an input fault. */
    static Faulty before(Converter right, LongUnaryOperator change) {
        return new Faulty() {
            @Override
            public long apply(long input) {
                return right.apply(change.applyAsLong(input));
            }

            @Override
            public void apply(long[] in, long[] results, long[] out, int from, int to) {
                long[] changed = new long[to - from];
                for (int i = from; i < to; i++) {
                    changed[i - from] = change.applyAsLong(in[i]);
                }
                right.apply(changed, 0, out, from, to - from);
            }
        };
    }

    /** One converter's result where the input is so, the case's own (right) elsewhere. */
    static Faulty where(LongPredicate input, Converter then, Converter right) {
        return new Faulty() {
            @Override
            public long apply(long x) {
                return input.test(x) ? then.apply(x) : right.apply(x);
            }

            @Override
            public void apply(long[] in, long[] results, long[] out, int from, int to) {
                if (results == null) {
                    right.apply(in, from, out, from, to - from);
                } else {
                    System.arraycopy(results, from, out, from, to - from);
                }
                long[] other = new long[to - from];
                then.apply(in, from, other, 0, to - from);
                for (int i = from; i < to; i++) {
                    if (input.test(in[i])) {
                        out[i] = other[i - from];
                    }
                }
            }
        };
    }

    /** Two conversions one after the other: a double rounding. */
    static Faulty composed(Converter first, Converter then) {
        return new Faulty() {
            @Override
            public long apply(long x) {
                return then.apply(first.apply(x));
            }

            @Override
            public void apply(long[] in, long[] results, long[] out, int from, int to) {
                long[] between = new long[to - from];
                first.apply(in, from, between, 0, to - from);
                then.apply(between, 0, out, from, to - from);
            }
        };
    }
}
