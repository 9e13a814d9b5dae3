package convcert.suite.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Packing's fast paths against element-by-element loops: the search for a poison among the expected
 * values (a long's lanes at a time), and rotated copies, comparisons and widening, for every element
 * width and sizes that are and are not multiples of a block, on seeded data with matches planted at the
 * ends of blocks and of the array.
 */
class PackingTest {

    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {1, 2, 4, 8})
    void theSearchForAValueFindsWhatALoopFinds(int bytes) {
        SplittableRandom random = new SplittableRandom(37 + bytes);
        long mask = bytes == 8 ? -1L : (1L << 8 * bytes) - 1;
        for (int n : new int[] {1, 7, 4095, 4096, 8193, 1 << 18}) {
            long value = random.nextLong() & mask;
            long[] values = new long[n];
            for (int k = 0; k < n; k++) {
                values[k] = random.nextLong() & mask;
            }
            for (int k : new int[] {0, n - 1, n / 2, Math.min(n - 1, 4095), Math.min(n - 1, 4096), Math.min(n - 1, 8191)}) {
                values[k] = value;
            }
            values[n / 3] = value ^ 1 << (8 * bytes - 1); // one lane off in its top bit: no match
            Packing packing = new Packing(bytes, n);
            packing.set(values, n, 0);
            List<Integer> found = new ArrayList<>();
            packing.indexesOf(n, value, found::add);
            List<Integer> expected = IntStream.range(0, n).filter(k -> values[k] == value).boxed().toList();
            assertEquals(expected, found, "n = " + n);
        }
    }

    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {1, 2, 4, 8})
    void aRotatedCopyReadsBackInOrderAndDiffersFromAnyOtherRotation(int bytes) {
        SplittableRandom random = new SplittableRandom(41 + bytes);
        long mask = bytes == 8 ? -1L : (1L << 8 * bytes) - 1;
        int n = 1000;
        long[] values = new long[n];
        for (int k = 0; k < n; k++) {
            values[k] = random.nextLong() & mask;
        }
        Packing packing = new Packing(bytes, n);
        packing.set(values, n, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment slot = arena.allocate(8L * n);
            for (int r : new int[] {0, 1, 499, 999}) {
                packing.copyToRotated(slot, n, r);
                long[] raw = new long[n];
                new Packing(bytes, n).widenRotated(slot, n, 0, raw);
                for (int k = 0; k < n; k++) { // element k of the slot is element (k + r) mod n
                    assertEquals(values[(k + r) % n], raw[k], "r = " + r + ", k = " + k);
                }
                assertTrue(packing.sameRotated(slot, n, r));
                assertTrue(!packing.sameRotated(slot, n, (r + 1) % n), "another rotation is not the same");
                long[] back = new long[n];
                new Packing(bytes, n).widenRotated(slot, n, r, back);
                assertArrayEquals(values, back);
            }
        }
    }

    @ParameterizedTest(name = "{0} elements")
    @ValueSource(ints = {2, 3, 1000})
    void noBatchIsInTheOrderOfTheOneBefore(int n) {
        Order order = new Order();
        int last = order.next(n);
        for (int k = 0; k < 2000; k++) {
            int r = order.next(n);
            assertTrue(r >= 0 && r < n, "rotation " + r + " of " + n);
            assertNotEquals(last, r);
            last = r;
        }
        assertEquals(0, order.next(1));
    }

    /**
     * The expected-value cache's chunk digest, and a kept chunk's inputs packed without widening (the
     * same bytes as packing them from long[]); every change of one element, in any of
     * its bits, and every swap of two neighbours changes the digest, at any width and at the ends.
     */
    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {1, 2, 4, 8})
    void theChunkDigestChangesWithAnyElementAndItsPlace(int bytes) {
        SplittableRandom random = new SplittableRandom(91 + bytes);
        for (int n : new int[] {1, 3, 4097, 1 << 12}) {
            long first = random.nextLong() >>> 1;
            long[] values = new long[n];
            for (int k = 0; k < n; k++) {
                values[k] = first + k;
            }
            Packing widened = new Packing(bytes, n);
            widened.set(values, n, 0);
            long digest = widened.hash(n);
            Packing direct = new Packing(bytes, n);
            direct.consecutive(first, n / 2, 0); // in two pieces, as a chunk is packed
            direct.consecutive(first + n / 2, n - n / 2, n / 2);
            assertEquals(digest, direct.hash(n), "consecutive() packs what set() packs");
            for (int k : new int[] {0, n - 1, n / 2}) {
                for (int bit = 0; bit < 8 * bytes; bit += bytes) {
                    long[] changed = values.clone();
                    changed[k] ^= 1L << bit;
                    Packing p = new Packing(bytes, n);
                    p.set(changed, n, 0);
                    assertNotEquals(digest, p.hash(n), "element " + k + " bit " + bit + " of " + n);
                }
            }
            if (n > 1) {
                for (int k : new int[] {0, n - 2}) { // neighbours: consecutive values, different in every width
                    long[] swapped = values.clone();
                    swapped[k] = values[k + 1];
                    swapped[k + 1] = values[k];
                    Packing p = new Packing(bytes, n);
                    p.set(swapped, n, 0);
                    assertNotEquals(digest, p.hash(n), "elements " + k + " and " + (k + 1) + " swapped, of " + n);
                }
                assertNotEquals(digest, widened.hash(n - 1), "one element fewer");
            }
        }
    }
}
