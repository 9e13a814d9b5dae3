package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * AMD's FNUZ FP8 formats (E4M3FNUZ bias 8, E5M2FNUZ bias 16) against an oracle of their own: the
 * values from the definition (no infinity, no -0, the only NaN at 0x80, every other code a number,
 * subnormals at exponent 0), and conversion as a search for the nearest value in double arithmetic
 * (exact for these formats), a tie to the even code, with HIP's rules outside the range: __HIP_NOSAT
 * overflows to NaN, __HIP_SATFINITE clamps finite values to the largest, infinity and NaN give NaN
 * under both (decision sat-infinity=propagate). Nothing here uses FormatCodec.
 */
class FnuzOracleTest {

    static final Reference ROCM = TestProfile.reference("rocm");

    record Fnuz(String name, int exponentBits, int mantissaBits, int bias) {
        /** The value of a code (not 0x80) by the definition. */
        double value(int code) {
            int e = (code >> mantissaBits) & ((1 << exponentBits) - 1);
            int m = code & ((1 << mantissaBits) - 1);
            double magnitude = e == 0 ? Math.scalb((double) m, 1 - bias - mantissaBits)
                    : Math.scalb((double) ((1 << mantissaBits) | m), e - bias - mantissaBits);
            return (code & 0x80) != 0 ? -magnitude : magnitude;
        }
    }

    static final List<Fnuz> FORMATS = List.of(new Fnuz("fp8_e4m3fnuz", 4, 3, 8), new Fnuz("fp8_e5m2fnuz", 5, 2, 16));

    @Test
    void theOracleHasTheDocumentedRange() {
        // research field-2026.md: E4M3FNUZ max 240, min normal 2^-7, min subnormal 2^-10; E5M2FNUZ 57344, 2^-15, 2^-17.
        assertEquals(240.0, FORMATS.get(0).value(0x7F));
        assertEquals(0x1p-7, FORMATS.get(0).value(0x08));
        assertEquals(0x1p-10, FORMATS.get(0).value(0x01));
        assertEquals(57344.0, FORMATS.get(1).value(0x7F));
        assertEquals(0x1p-15, FORMATS.get(1).value(0x04));
        assertEquals(0x1p-17, FORMATS.get(1).value(0x01));
    }

    /** Every code widens to the value the definition gives; 0x80 to NaN. */
    @TestFactory
    Stream<DynamicTest> everyCodeWidensToItsValue() {
        return FORMATS.stream().map(f -> DynamicTest.dynamicTest(f.name() + "->float", () -> {
            Converter c = ROCM.converter(ROCM.resolve(f.name(), "float", "rn", "nosat", ROCM.ctrl("")));
            for (int code = 0; code < 256; code++) {
                float got = Float.intBitsToFloat((int) c.apply(code));
                if (code == 0x80) {
                    assertTrue(Float.isNaN(got), "0x80 is NaN");
                } else {
                    assertEquals((float) f.value(code), got, f.name() + " 0x" + Integer.toHexString(code));
                }
            }
        }));
    }

    /** float -> FNUZ by the nearest value, a tie to the even code; sat clamps finite overflow. */
    static long oracle(Fnuz f, float x, boolean sat) {
        if (Float.isNaN(x) || Float.isInfinite(x)) {
            return 0x80;
        }
        double a = Math.abs((double) x);
        int best = 0;
        for (int code = 1; code < 0x80; code++) {
            if (f.value(code) <= a) {
                best = code;
            }
        }
        int result = best;
        if (best == 0x7F) { // at or beyond the largest: past its midpoint with the next place, it overflows
            double halfUlp = (f.value(0x7F) - f.value(0x7E)) / 2;
            result = a < f.value(0x7F) + halfUlp ? 0x7F : 0x80; // a tie leaves the odd 0x7F
        } else {
            double lo = f.value(best);
            double hi = f.value(best + 1);
            if (a - lo > hi - a || (a - lo == hi - a && (best & 1) == 1)) {
                result = best + 1;
            }
        }
        if (result == 0x80) {
            return sat ? (x < 0 ? 0xFF : 0x7F) : 0x80;
        }
        return result == 0 ? 0 : (x < 0 ? 0x80 | result : result); // no -0
    }

    static List<Integer> floatInputs() {
        List<Integer> inputs = new ArrayList<>();
        for (int h = 0; h < 1 << 16; h++) { // every half, widened: all FP8 neighbourhoods at half's precision
            inputs.add(Float.floatToRawIntBits(Float.float16ToFloat((short) h)));
        }
        for (Fnuz f : FORMATS) { // each value, its midpoints with the next, and one float either side of each
            for (int code = 0; code < 0x7F; code++) {
                for (double v : new double[] {f.value(code), (f.value(code) + f.value(code + 1)) / 2}) {
                    int bits = Float.floatToRawIntBits((float) v);
                    for (int d = -1; d <= 1; d++) {
                        inputs.add(bits + d);
                        inputs.add((bits + d) | 0x80000000);
                    }
                }
            }
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            inputs.add(random.nextInt());
        }
        return inputs;
    }

    @TestFactory
    Stream<DynamicTest> floatsNarrowAsTheOracleSays() {
        List<Integer> inputs = floatInputs();
        return FORMATS.stream().flatMap(f -> Stream.of("nosat", "sat").map(form -> DynamicTest.dynamicTest(
                "float->" + f.name() + " " + form, () -> {
                    Converter c = ROCM.converter(ROCM.resolve("float", f.name(), "rn", form, ROCM.ctrl("")));
                    List<String> wrong = new ArrayList<>();
                    for (int bits : inputs) {
                        long want = oracle(f, Float.intBitsToFloat(bits), form.equals("sat"));
                        long got = c.apply(bits & 0xFFFFFFFFL);
                        if (want != got && wrong.size() < 5) {
                            wrong.add(String.format("0x%08X: oracle 0x%02X, reference 0x%02X", bits, want, got));
                        }
                    }
                    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
                })));
    }

    /**
     * Decision e4m3fnuz-clamp=clamp-224 (vLLM's torch.clamp(x, -224, 224) before the cast): the oracle of
     * the clamped value, in both forms; E5M2FNUZ is untouched.
     */
    @TestFactory
    Stream<DynamicTest> theClampTo224ConvertsTheClampedValue() {
        Reference clamped = new Reference(ROCM.tables(), Semantics.of(ROCM.tables(), java.util.Map.of("e4m3fnuz-clamp",
                "clamp-224")));
        List<Integer> inputs = floatInputs();
        return FORMATS.stream().flatMap(f -> Stream.of("nosat", "sat").map(form -> DynamicTest.dynamicTest(
                "float->" + f.name() + " " + form + " clamped", () -> {
                    Converter c = clamped.converter(clamped.resolve("float", f.name(), "rn", form, clamped.ctrl("")));
                    boolean e4m3 = f.exponentBits() == 4;
                    int changed = 0;
                    for (int bits : inputs) {
                        float x = Float.intBitsToFloat(bits);
                        float y = e4m3 && !Float.isNaN(x) ? Math.max(-224f, Math.min(224f, x)) : x;
                        long want = oracle(f, y, form.equals("sat"));
                        assertEquals(want, c.apply(bits & 0xFFFFFFFFL), String.format("0x%08X", bits));
                        changed += want != oracle(f, x, form.equals("sat")) ? 1 : 0;
                    }
                    assertTrue(e4m3 ? changed > 1000 : changed == 0, "clamping changes " + changed + " results");
                })));
    }

    /** half -> FNUZ over all 2^16 inputs: the same oracle (every half is a float). */
    @TestFactory
    Stream<DynamicTest> everyHalfNarrowsAsTheOracleSays() {
        return FORMATS.stream().flatMap(f -> Stream.of("nosat", "sat").map(form -> DynamicTest.dynamicTest(
                "half->" + f.name() + " " + form, () -> {
                    Converter c = ROCM.converter(ROCM.resolve("half", f.name(), "rn", form, ROCM.ctrl("")));
                    for (int h = 0; h < 1 << 16; h++) {
                        long want = oracle(f, Float.float16ToFloat((short) h), form.equals("sat"));
                        assertEquals(want, c.apply(h), String.format("half 0x%04X", h));
                    }
                })));
    }
}
