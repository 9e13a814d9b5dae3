package convcert.suite.runner;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

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

    /** The complements of the array's first n elements (every bit flipped) into dst: an output left unwritten then differs. */
    void complementTo(MemorySegment dst, int n) {
        switch (bytes) {
            case 1 -> {
                for (int k = 0; k < n; k++) {
                    dst.set(ValueLayout.JAVA_BYTE, k, (byte) ~b[k]);
                }
            }
            case 2 -> {
                for (int k = 0; k < n; k++) {
                    dst.setAtIndex(SHORT, k, (short) ~s[k]);
                }
            }
            case 4 -> {
                for (int k = 0; k < n; k++) {
                    dst.setAtIndex(INT, k, ~i[k]);
                }
            }
            default -> {
                for (int k = 0; k < n; k++) {
                    dst.setAtIndex(LONG, k, ~l[k]);
                }
            }
        }
    }

    /** The first n elements of the array copied into dst, little-endian. */
    void copyTo(MemorySegment dst, int n) {
        switch (bytes) {
            case 1 -> MemorySegment.copy(b, 0, dst, ValueLayout.JAVA_BYTE, 0, n);
            case 2 -> MemorySegment.copy(s, 0, dst, SHORT, 0, n);
            case 4 -> MemorySegment.copy(i, 0, dst, INT, 0, n);
            default -> MemorySegment.copy(l, 0, dst, LONG, 0, n);
        }
    }

    /** Where the first n elements of the array and of packed memory differ: -1 where they are the same. */
    long mismatch(MemorySegment packed, int n) {
        MemorySegment mine = switch (bytes) {
            case 1 -> MemorySegment.ofArray(b);
            case 2 -> MemorySegment.ofArray(s);
            case 4 -> MemorySegment.ofArray(i);
            default -> MemorySegment.ofArray(l);
        };
        long length = (long) n * bytes;
        return MemorySegment.mismatch(mine, 0, length, packed, 0, length);
    }

    /** n elements of packed memory into values[0..n), zero-extended (through the array, which they overwrite). */
    void widen(MemorySegment src, int n, long[] values) {
        switch (bytes) {
            case 1 -> MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, b, 0, n);
            case 2 -> MemorySegment.copy(src, SHORT, 0, s, 0, n);
            case 4 -> MemorySegment.copy(src, INT, 0, i, 0, n);
            default -> MemorySegment.copy(src, LONG, 0, l, 0, n);
        }
        get(n, values);
    }
}
