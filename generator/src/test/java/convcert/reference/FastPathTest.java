package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every fast path equals the generic path it stands in for. */
@Tag("slow") // left out by ./convcert test --quick
class FastPathTest {

    private static Converter floatToHalf(String form) {
        Reference r = TestProfile.reference();
        Converter c = r.converter(r.resolve("float", "half", "rn", form, r.ctrl("60=0")));
        assertTrue(FloatToHalfFastPath.covers(c.spec(), c.semantics()));
        return c;
    }

    /** Compares fast and generic batch results for inputs [first, first + count); null when equal. */
    private static String compare(Converter c, long first, int count) {
        long[] in = new long[count];
        long[] fast = new long[count];
        long[] generic = new long[count];
        for (int i = 0; i < count; i++) {
            in[i] = first + i;
        }
        c.apply(in, 0, fast, 0, count);
        c.applyGeneric(in, 0, generic, 0, count);
        for (int i = 0; i < count; i++) {
            if (fast[i] != generic[i]) {
                return "float 0x" + Long.toHexString(in[i]) + ": fast 0x" + Long.toHexString(fast[i]) + ", generic 0x"
                        + Long.toHexString(generic[i]);
            }
        }
        return null;
    }

    @Test
    void floatToHalfNosatOnAll2pow32Inputs() {
        Converter c = floatToHalf("nosat");
        AtomicReference<String> first = new AtomicReference<>();
        IntStream.range(0, 256).parallel().forEach(chunk -> {
            String mismatch = compare(c, (long) chunk << 24, 1 << 24);
            if (mismatch != null) {
                first.compareAndSet(null, mismatch);
            }
        });
        assertEquals(null, first.get());
    }

    @Test
    void floatToHalfSatWhereSaturationActsAndOnAStructuredSweep() {
        Converter c = floatToHalf("sat");
        // Every float with |x| >= 65504 (0x477FE000): overflow, infinity and every NaN, both signs.
        for (long sign : new long[] {0, 0x80000000L}) {
            long lo = sign | 0x477FE000L;
            long hi = sign | 0x80000000L;
            for (long start = lo; start < hi; start += 1 << 24) {
                assertEquals(null, compare(c, start, (int) Math.min(1 << 24, hi - start)));
            }
        }
        long[] sweep = new long[9 << 20];
        int[] n = {0};
        Sweeps.float32Structured(12, bits -> sweep[n[0]++] = bits);
        long[] fast = new long[sweep.length];
        long[] generic = new long[sweep.length];
        c.apply(sweep, 0, fast, 0, sweep.length);
        c.applyGeneric(sweep, 0, generic, 0, sweep.length);
        for (int i = 0; i < sweep.length; i++) {
            assertEquals(generic[i], fast[i], "float 0x" + Long.toHexString(sweep[i]));
        }
    }
}
