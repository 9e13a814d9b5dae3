package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.common.UsageException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The selectable alternatives of decisions.csv change exactly what they say. Expected values are
 * worked out by hand from the decision text (values in comments).
 */
class DecisionsTest {

    private static long convert(String from, String to, String mode, String form, String ctrl,
                                Map<String, String> decisions, long bits) {
        Reference r = new Reference(TestProfile.tables(), Semantics.of(TestProfile.tables(), decisions));
        return r.converter(r.resolve(from, to, mode, form, r.ctrl(ctrl))).apply(bits);
    }

    /**
     * E8M0 rn ties. 0x00600000 is 1.5 x 2^-127, halfway between 2^-127 (code 0x00) and 2^-126 (0x01);
     * 0x01400000 is 1.5 x 2^-125, between codes 0x02 and 0x03; 1.5 (0x3FC00000) between 0x7F and 0x80.
     * up takes the larger power; even-code the even code (gfloat's reading): they differ where the
     * lower code is even. Off a tie (one more ulp) both round up.
     */
    @Test
    void exponentTies() {
        Reference mx = TestProfile.reference("ocp-mx");
        Reference even = new Reference(mx.tables(), Semantics.of(mx.tables(), Map.of("exponent-ties", "even-code")));
        long[][] cases = {{0x00600000, 0x01, 0x00}, {0x01400000, 0x03, 0x02}, {0x3FC00000, 0x80, 0x80},
            {0x01400001, 0x03, 0x03}, {0x013FFFFF, 0x02, 0x02}, {0xBF400000L, 0x7F, 0x7E}};
        for (String form : new String[] {"nosat", "sat"}) {
            for (long[] c : cases) {
                assertEquals(c[1], mx.converter(mx.resolve("float", "e8m0", "rn", form, mx.ctrl(""))).apply(c[0]),
                        "up " + Long.toHexString(c[0]));
                assertEquals(c[2], even.converter(even.resolve("float", "e8m0", "rn", form, even.ctrl(""))).apply(c[0]),
                        "even-code " + Long.toHexString(c[0]));
            }
        }
        // Only rn has ties to break: ru of 1.5 x 2^-125 is 0x03 under both.
        assertEquals(0x03, even.converter(even.resolve("float", "e8m0", "ru", "nosat", even.ctrl(""))).apply(0x01400000));
    }

    @Test
    void directedOverflow() {
        // 65519.996 (0x477FEFFF) lies between 65504 and 65520.
        assertEquals(0x7BFF, convert("float", "half", "rz", "nosat", "60=0", Map.of(), 0x477FEFFF));
        assertEquals(0x7C00, convert("float", "half", "rz", "nosat", "60=0",
                Map.of("directed-overflow", "infinity"), 0x477FEFFF));
        // 65504 exactly is not above MAX: stays under either option.
        assertEquals(0x7BFF, convert("float", "half", "rz", "nosat", "60=0",
                Map.of("directed-overflow", "infinity"), 0x477FE000));
        // -1e6 (0xC9742400): rd gives -inf under IEEE; rz gives -MAX by default and -inf with the alternative.
        assertEquals(0xFC00, convert("float", "half", "rd", "nosat", "60=0", Map.of(), 0xC9742400L));
        assertEquals(0xFBFF, convert("float", "half", "rz", "nosat", "60=0", Map.of(), 0xC9742400L));
        assertEquals(0xFC00, convert("float", "half", "rz", "nosat", "60=0",
                Map.of("directed-overflow", "infinity"), 0xC9742400L));
        // Saturation wins over both.
        assertEquals(0x7BFF, convert("float", "half", "ru", "sat", "60=0",
                Map.of("directed-overflow", "infinity"), 0x7F7FFFFF));
    }

    @Test
    void oddOverflow() {
        // 65535 (0x477FFF00) is in the top binade: ro keeps MAX under both options.
        assertEquals(0x7BFF, convert("float", "half", "ro", "nosat", "60=0", Map.of(), 0x477FFF00));
        assertEquals(0x7BFF, convert("float", "half", "ro", "nosat", "60=0", Map.of("odd-overflow", "infinity"),
                0x477FFF00));
        // 65536 (0x47800000) reaches the next binade: MAX by default, inf with the alternative.
        assertEquals(0x7BFF, convert("float", "half", "ro", "nosat", "60=0", Map.of(), 0x47800000));
        assertEquals(0x7C00, convert("float", "half", "ro", "nosat", "60=0", Map.of("odd-overflow", "infinity"),
                0x47800000));
    }

    @Test
    void nanEncoding() {
        // Signalling float NaN 0x7FA00001: preserve keeps the top payload bits (0x100) and sets the quiet bit.
        assertEquals(0x7F00, convert("float", "half", "rn", "nosat", "60=0", Map.of(), 0x7FA00001L));
        assertEquals(0xFF00, convert("float", "half", "rn", "nosat", "60=0", Map.of(), 0xFFA00001L));
        assertEquals(0x7E00, convert("float", "half", "rn", "nosat", "60=0", Map.of("nan-encoding", "canonical"),
                0xFFA00001L));
        assertEquals(0xFF, convert("float", "fp8_e4m3fn", "rn", "nosat", "60=0", Map.of(), 0xFFC00000L));
        assertEquals(0x7F, convert("float", "fp8_e4m3fn", "rn", "nosat", "60=0", Map.of("nan-encoding", "canonical"),
                0xFFC00000L));
        assertEquals(0x80, convert("float", "hifloat8", "rna", "nosat", "60=0", Map.of(), 0xFFC00000L));
        // Widening keeps the payload: half 0x7D01 -> float 0x7FE02000 (quiet bit set, payload 0x101 << 13).
        assertEquals(0x7FE02000L, convert("half", "float", "rn", "nosat", "", Map.of(), 0x7D01));
    }

    @Test
    void subnormalResults() {
        // 2^-24 is half's smallest subnormal; flush gives a zero of the same sign.
        assertEquals(0x0001, convert("float", "half", "rn", "nosat", "60=0", Map.of(), 0x33800000));
        assertEquals(0x0000, convert("float", "half", "rn", "nosat", "60=0", Map.of("subnormal-results", "flush"),
                0x33800000));
        assertEquals(0x8000, convert("float", "half", "rn", "nosat", "60=0", Map.of("subnormal-results", "flush"),
                0xB3800000L));
        assertEquals(0x0400, convert("float", "half", "rn", "nosat", "60=0", Map.of("subnormal-results", "flush"),
                0x38800000), "the smallest normal stays");
    }

    @Test
    void fp8NanUnderSaturationFollowsCtrl50() {
        assertEquals(0x00, convert("float", "fp8_e5m2", "rn", "sat", "60=0,50=0", Map.of(), 0x7FC00000));
        assertEquals(0x7E, convert("float", "fp8_e5m2", "rn", "sat", "60=0,50=1", Map.of(), 0x7FC00000));
        assertEquals(0x00, convert("float", "half", "rn", "sat", "60=0,50=1", Map.of(), 0x7FC00000), "half: not fp8");
    }

    @Test
    void integerCtrl59KeepsTheLowBits() {
        // 3e9 (0x4F32D05E = 3000000000): int32 saturates to 0x7FFFFFFF; wrapping keeps 0xB2D05E00.
        assertEquals(0x7FFFFFFFL, convert("float", "int32", "rz", "sat", "60=1,59=0", Map.of(), 0x4F32D05E));
        assertEquals(0xB2D05E00L, convert("float", "int32", "rz", "sat", "60=1,59=1", Map.of(), 0x4F32D05E));
        assertEquals(0x7FFFFFFFL, convert("float", "int32", "rz", "sat", "60=1,59=1", Map.of(), 0x7F800000),
                "inf keeps the extreme value");
        assertEquals(0x00L, convert("float", "int32", "rz", "sat", "60=1,59=1", Map.of(), 0x7FC00000));
        // half -> int8 without _sat under per-instruction control wraps: 200.0 (0x5A40) -> 0xC8.
        assertEquals(0xC8, convert("half", "int8", "rn", "nosat", "60=0", Map.of(), 0x5A40));
        assertEquals(0x7F, convert("half", "int8", "rn", "sat", "60=0", Map.of(), 0x5A40));
    }

    @Test
    void unknownDecisionsAndOptionsAreUsageErrors() {
        var tables = TestProfile.tables();
        var e = assertThrows(UsageException.class, () -> Semantics.of(tables, Map.of("no-such", "x")));
        assertTrue(e.getMessage().contains("directed-overflow"), e.getMessage());
        e = assertThrows(UsageException.class, () -> Semantics.of(tables, Map.of("nan-encoding", "quiet")));
        assertTrue(e.getMessage().contains("preserve canonical"), e.getMessage());
    }
}
