package convcert.suite.runner;

import java.util.Arrays;

/**
 * A case's elements whose packed output read as its batch's poison (PackedRunner): each must be asked
 * again under another poison before its verdict stands. Which elements these are depends only on what
 * the implementation wrote: an element agreeing with its expected value is one whose poison happened to
 * be that value, and one that does not is asked all the same, so that being asked again tells nothing.
 */
final class Doubtful {

    /** Elements taken out together, asked again in one batch: inputs, expected values, the poisons they read as, whether those agreed. */
    record Batch(long[] in, long[] expected, long[] poison, boolean[] agreed, int count) {
    }

    private long[] in = new long[16];
    private long[] expected = new long[16];
    private long[] poison = new long[16];
    private boolean[] agreed = new boolean[16];
    private int size;

    void add(long input, long expectedValue, long poisonValue, boolean agreedWith) {
        if (size == in.length) {
            in = Arrays.copyOf(in, 2 * size);
            expected = Arrays.copyOf(expected, 2 * size);
            poison = Arrays.copyOf(poison, 2 * size);
            agreed = Arrays.copyOf(agreed, 2 * size);
        }
        in[size] = input;
        expected[size] = expectedValue;
        poison[size] = poisonValue;
        agreed[size] = agreedWith;
        size++;
    }

    int size() {
        return size;
    }

    /** The first at most max elements, removed. */
    Batch take(int max) {
        int n = Math.min(max, size);
        Batch b = new Batch(Arrays.copyOf(in, n), Arrays.copyOf(expected, n), Arrays.copyOf(poison, n), Arrays.copyOf(agreed, n), n);
        System.arraycopy(in, n, in, 0, size - n);
        System.arraycopy(expected, n, expected, 0, size - n);
        System.arraycopy(poison, n, poison, 0, size - n);
        System.arraycopy(agreed, n, agreed, 0, size - n);
        size -= n;
        return b;
    }
}
