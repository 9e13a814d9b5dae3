package convcert.suite.runner;

import convcert.reference.ChunkDigest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * A typed array of packed elements (1, 2, 4 or 8 bytes, as the native ABI and shared memory hold them)
 * and its memory segment: the suite's long[] values narrowed into it and widened out of it by loops the
 * JIT vectorises, and copied to or from packed memory in one bulk copy. Little-endian in memory, as the
 * segment copies write it.
 */
final class Packing {

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int bytes;
    private final byte[] b;
    private final short[] s;
    private final int[] i;
    private final long[] l;

    /** For elements of bytes each, at most capacity of them. */
    Packing(int bytes, int capacity) {
        this.bytes = bytes;
        this.b = bytes == 1 ? new byte[capacity] : null;
        this.s = bytes == 2 ? new short[capacity] : null;
        this.i = bytes == 4 ? new int[capacity] : null;
        this.l = bytes == 8 ? new long[capacity] : null;
    }

    /** values[0..n) into the array from index at. */
    void set(long[] values, int n, int at) {
        switch (bytes) {
            case 1 -> {
                for (int k = 0; k < n; k++) {
                    b[at + k] = (byte) values[k];
                }
            }
            case 2 -> {
                for (int k = 0; k < n; k++) {
                    s[at + k] = (short) values[k];
                }
            }
            case 4 -> {
                for (int k = 0; k < n; k++) {
                    i[at + k] = (int) values[k];
                }
            }
            default -> System.arraycopy(values, 0, l, at, n);
        }
    }

    /** 0, 1, 2, ...: consecutive values as an offset plus a load, which the JIT vectorises (an induction variable it does not). */
    private static final int[] IOTA = IntStream.range(0, PackedRunner.CHUNK).toArray();

    /**
     * The values first, first + 1, ..., first + n - 1 (their low bytes) into the array from index at
     * (at + n at most PackedRunner.CHUNK): a range's inputs.
     */
    void consecutive(long first, int n, int at) {
        int f = (int) first - at;
        switch (bytes) {
            case 1 -> {
                for (int k = at; k < at + n; k++) {
                    b[k] = (byte) (f + IOTA[k]);
                }
            }
            case 2 -> {
                for (int k = at; k < at + n; k++) {
                    s[k] = (short) (f + IOTA[k]);
                }
            }
            case 4 -> {
                for (int k = at; k < at + n; k++) {
                    i[k] = f + IOTA[k];
                }
            }
            default -> {
                long g = first - at;
                for (int k = at; k < at + n; k++) {
                    l[k] = g + IOTA[k];
                }
            }
        }
    }

    /** The array's first n elements into values[0..n), zero-extended. */
    void get(int n, long[] values) {
        switch (bytes) {
            case 1 -> {
                for (int k = 0; k < n; k++) {
                    values[k] = b[k] & 0xFFL;
                }
            }
            case 2 -> {
                for (int k = 0; k < n; k++) {
                    values[k] = s[k] & 0xFFFFL;
                }
            }
            case 4 -> {
                for (int k = 0; k < n; k++) {
                    values[k] = i[k] & 0xFFFFFFFFL;
                }
            }
            default -> System.arraycopy(l, 0, values, 0, n);
        }
    }

    /** Element k, zero-extended. */
    long at(int k) {
        return switch (bytes) {
            case 1 -> b[k] & 0xFFL;
            case 2 -> s[k] & 0xFFFFL;
            case 4 -> i[k] & 0xFFFFFFFFL;
            default -> l[k];
        };
    }

    /**
     * n elements of value (its low bytes) into dst: a batch's poison. Through the array (which it
     * overwrites) and one bulk copy: a loop of stores into native memory is not vectorised.
     */
    void fill(MemorySegment dst, int n, long value) {
        switch (bytes) {
            case 1 -> dst.asSlice(0, n).fill((byte) value);
            case 2 -> Arrays.fill(s, 0, n, (short) value);
            case 4 -> Arrays.fill(i, 0, n, (int) value);
            default -> Arrays.fill(l, 0, n, value);
        }
        if (bytes > 1) {
            copyTo(dst, n);
        }
    }

    /** Longs a block of the search below covers: a block with no match costs a few instructions a long. */
    private static final int BLOCK_LONGS = 1 << 10;

    /**
     * The indexes below n of the elements equal to value (its low bytes), in order, to found. Elements of
     * 1, 2 or 4 bytes are searched 8, 4 or 2 at a time in a long (whether one of its lanes is zero after an
     * xor with the value), element by element only in blocks where that finds one.
     */
    void indexesOf(int n, long value, IntConsumer found) {
        if (bytes == 8) {
            scan(0, n, value, found);
            return;
        }
        long ones = bytes == 1 ? 0x0101_0101_0101_0101L : bytes == 2 ? 0x0001_0001_0001_0001L : 0x0000_0001_0000_0001L;
        long lanes = (value & ((1L << 8 * bytes) - 1)) * ones;
        long highs = ones << (8 * bytes - 1);
        MemorySegment all = segment();
        int perLong = 8 / bytes;
        int longs = n / perLong;
        for (int from = 0; from < longs; from += BLOCK_LONGS) {
            int to = Math.min(longs, from + BLOCK_LONGS);
            long hit = 0;
            for (int k = from; k < to; k++) {
                long x = all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, k) ^ lanes;
                hit |= (x - ones) & ~x & highs;
            }
            if (hit != 0) {
                scan(from * perLong, to * perLong, value, found);
            }
        }
        scan(longs * perLong, n, value, found);
    }

    /** The indexes in [from, to) of the elements equal to value, one by one. */
    private void scan(int from, int to, long value, IntConsumer found) {
        for (int k = from; k < to; k++) {
            if (at(k) == (value & (bytes == 8 ? -1L : (1L << 8 * bytes) - 1))) {
                found.accept(k);
            }
        }
    }

    /**
     * The first n elements of the array into dst rotated by r: element (k + r) mod n at k, in two bulk
     * copies, so that a batch's order differs from any other's with the same elements.
     */
    void copyToRotated(MemorySegment dst, int n, int r) {
        copyTo(r, dst, 0, n - r);
        copyTo(0, dst, (long) (n - r) * bytes, r);
    }

    /** The first n elements of the array copied into dst, little-endian. */
    void copyTo(MemorySegment dst, int n) {
        copyTo(0, dst, 0, n);
    }

    private void copyTo(int from, MemorySegment dst, long at, int n) {
        switch (bytes) {
            case 1 -> MemorySegment.copy(b, from, dst, ValueLayout.JAVA_BYTE, at, n);
            case 2 -> MemorySegment.copy(s, from, dst, SHORT, at, n);
            case 4 -> MemorySegment.copy(i, from, dst, INT, at, n);
            default -> MemorySegment.copy(l, from, dst, LONG, at, n);
        }
    }

    /** Whether packed memory holds the array's first n elements rotated by r (as copyToRotated wrote them). */
    boolean sameRotated(MemorySegment packed, int n, int r) {
        MemorySegment mine = segment();
        long head = (long) (n - r) * bytes;
        long tail = (long) r * bytes;
        return MemorySegment.mismatch(mine, (long) r * bytes, (long) n * bytes, packed, 0, head) < 0
                && MemorySegment.mismatch(mine, 0, tail, packed, head, head + tail) < 0;
    }

    /** n elements of packed memory written rotated by r, back in order into values[0..n), zero-extended (through the array). */
    void widenRotated(MemorySegment src, int n, int r, long[] values) {
        unrotate(src, n, r);
        get(n, values);
    }

    /** n elements of packed memory written rotated by r, back in order into the array. */
    void unrotate(MemorySegment src, int n, int r) {
        long head = (long) (n - r) * bytes;
        switch (bytes) {
            case 1 -> {
                MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, b, r, n - r);
                MemorySegment.copy(src, ValueLayout.JAVA_BYTE, head, b, 0, r);
            }
            case 2 -> {
                MemorySegment.copy(src, SHORT, 0, s, r, n - r);
                MemorySegment.copy(src, SHORT, head, s, 0, r);
            }
            case 4 -> {
                MemorySegment.copy(src, INT, 0, i, r, n - r);
                MemorySegment.copy(src, INT, head, i, 0, r);
            }
            default -> {
                MemorySegment.copy(src, LONG, 0, l, r, n - r);
                MemorySegment.copy(src, LONG, head, l, 0, r);
            }
        }
    }

    /**
     * A 64-bit digest of the array's first n elements (the expected-value cache's chunk digest): the sum
     * over each 8 bytes w at position k of x ^ (x >>> 32) with x = (w ^ k G) M, a bijection of w for each
     * k, so a changed, moved or missing element changes it; one multiply per 8 bytes and no chain of
     * dependent steps (the sum) to wait on. In the machine's byte order (the cache's key names it).
     */
    long hash(int n) {
        MemorySegment all = segment();
        long size = (long) n * bytes;
        long words = size >>> 3;
        long sum = size;
        for (long k = 0; k < words; k++) {
            long x = (all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, k) ^ k * 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
            sum += x ^ x >>> 32;
        }
        long tail = 1;
        for (long k = words << 3; k < size; k++) {
            tail = tail << 8 | all.get(ValueLayout.JAVA_BYTE, k) & 0xFF;
        }
        return sum + ChunkDigest.mix(tail ^ words);
    }

    private MemorySegment segment() {
        return switch (bytes) {
            case 1 -> MemorySegment.ofArray(b);
            case 2 -> MemorySegment.ofArray(s);
            case 4 -> MemorySegment.ofArray(i);
            default -> MemorySegment.ofArray(l);
        };
    }
}
