package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.oracle.IndependentDecoder;
import convcert.reference.Reference;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The coverage model puts points where conversions go wrong, and is reproducible. */
class CoverageModelTest {

    private static Map<Long, String> points(String from, String to, Level level, long seed) {
        Reference r = TestProfile.reference();
        TaggedInputs inputs = new CoverageModel(r, CoverageTag.builtIn(), level, seed).inputs(r.conversion(from, to));
        Map<Long, String> map = new HashMap<>();
        long[] bits = inputs.bits();
        String[] tags = inputs.tags();
        for (int i = 0; i < bits.length; i++) {
            map.put(bits[i], tags[i]);
        }
        return map;
    }

    @Test
    void floatToHalfCoversTiesOverflowAndSpecials() {
        Map<Long, String> p = points("float", "half", Level.CI, 1);
        // 65520 is where rn overflows; one float ulp either side (formats.md 5.2).
        assertEquals("overflow", p.get(0x477FF000L));
        assertEquals("overflow", p.get(0x477FEFFFL));
        assertEquals("overflow", p.get(0x477FF001L));
        assertEquals("overflow", p.get(0xC77FF000L), "negative side too");
        // The smallest subnormal's midpoint with zero: 2^-25, and its neighbours.
        assertEquals("grid", p.get(0x33000000L));
        assertEquals("grid", p.get(0x33000001L));
        assertEquals("special", p.get(0x7F800001L), "signalling NaN with payload 1");
        assertEquals("zero", p.get(0x80000000L));
    }

    @Test
    void hifloat8CoversTheTaperedThresholdsAndHybridComparisons() {
        Map<Long, String> p = points("float", "hifloat8", Level.CI, 1);
        assertEquals("overflow", p.get(0x47200000L), "40960: ties-away overflow threshold (formats.md 1.4.1)");
        assertEquals("overflow", p.get(0x471FFFFFL));
        assertTrue(p.containsValue("hybrid-compare"));
        Reference r = TestProfile.reference();
        var hybrid = r.converter(r.resolve("float", "hifloat8", "rh", "nosat", r.ctrl("60=0")));
        p.forEach((bits, tag) -> {
            if (tag.equals("hybrid-compare")) {
                long[] c = hybrid.hybridComparison(bits);
                assertTrue(Math.abs(c[0] - c[1]) <= 1, "0x" + Long.toHexString(bits));
            }
        });
    }

    @Test
    void floatToInt32CoversBoundsAndHalfIntegers() {
        Map<Long, String> p = points("float", "int32", Level.CI, 1);
        assertEquals("integer-bounds", p.get(0x4F000000L), "2^31 = INT_MAX + 1 as a float");
        assertEquals("integer-bounds", p.get(0x4EFFFFFFL), "the largest float below 2^31");
        assertEquals("integer-bounds", p.get(0x3FC00000L), "1.5 = 1 + 0.5");
        assertEquals("half-integers", p.get(0x40200000L), "2.5");
        assertEquals("half-integers", p.get(0x40600000L), "3.5");
    }

    @Test
    void smallSourcesAreExhaustiveAndWideOnesAreNot() {
        Map<Long, String> p = points("hifloat8", "half", Level.CI, 1);
        assertEquals(256, p.size());
        assertFalse(p.containsValue("random-bits"), "no random inputs where everything is enumerated");
        Map<Long, String> half = points("half", "hifloat8", Level.FULL, 1);
        assertEquals(65536, half.size());
        assertTrue(points("float", "half", Level.QUICK, 1).size() < points("float", "half", Level.CI, 1).size());
    }

    @Test
    void sameSeedSameInputsOtherSeedOtherRandomPoints() {
        Reference r = TestProfile.reference();
        var c = r.conversion("float", "bfloat16");
        long[] a = new CoverageModel(r, CoverageTag.builtIn(), Level.CI, 7).inputs(c).bits();
        long[] b = new CoverageModel(r, CoverageTag.builtIn(), Level.CI, 7).inputs(c).bits();
        long[] other = new CoverageModel(r, CoverageTag.builtIn(), Level.CI, 8).inputs(c).bits();
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, other));
        // Structured points do not depend on the seed.
        assertEquals(0, Arrays.stream(a).filter(x -> x == 0x7F7F8000L).count() - 1, "rn overflow threshold present");
        assertTrue(Arrays.stream(other).anyMatch(x -> x == 0x7F7F8000L));
    }

    @Test
    void everyIntegerSourceInputIsInRange() {
        Map<Long, String> p = points("int8", "uint8", Level.CI, 1);
        p.keySet().forEach(bits -> assertTrue(bits >= 0 && bits <= 0xFF, Long.toHexString(bits)));
        Map<Long, String> wide = points("int64", "half", Level.CI, 1);
        assertTrue(wide.containsKey(0x8000000000000000L), "INT64_MIN");
        assertTrue(wide.keySet().stream().anyMatch(b -> IndependentDecoder.decode("int64", b).negative()));
    }
}
