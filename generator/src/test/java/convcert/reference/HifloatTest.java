package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.HifloatPseudoCode;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HiFloat8 against the transcribed hardware pseudo-code (TA and HR, saturating or not): every half
 * input, and 9 * 2^20 structured float inputs; decoding against the research notes' rules.
 */
class HifloatTest {

    private static Converter converter(String from, String mode, String form, Map<String, String> decisions) {
        Reference r = new Reference(TestProfile.tables(), Semantics.of(TestProfile.tables(), decisions));
        return r.converter(r.resolve(from, "hifloat8", mode, form, r.ctrl("60=0")));
    }

    @ParameterizedTest(name = "half->hifloat8 {0} {1}, all 65536 inputs")
    @CsvSource({"rna,nosat", "rna,sat", "rh,nosat", "rh,sat"})
    void halfExhaustiveAgainstPseudoCode(String mode, String form) {
        Converter c = converter("half", mode, form, Map.of());
        List<String> mismatches = new ArrayList<>();
        for (int h = 0; h < 65536; h++) {
            int expected = HifloatPseudoCode.fromHalf(h, mode.equals("rh"), form.equals("sat"));
            long actual = c.apply(h);
            if (actual != expected && mismatches.size() < 10) {
                mismatches.add(String.format("half 0x%04X: pseudo-code 0x%02X, reference 0x%02X", h, expected, actual));
            }
        }
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }

    @ParameterizedTest(name = "float->hifloat8 {0} {1}, structured sweep")
    @CsvSource({"rna,nosat", "rna,sat", "rh,nosat", "rh,sat"})
    void floatStructuredAgainstPseudoCode(String mode, String form) {
        Converter c = converter("float", mode, form, Map.of());
        List<String> mismatches = new ArrayList<>();
        Sweeps.float32Structured(11, f -> {
            int expected = HifloatPseudoCode.fromFloat((int) f, mode.equals("rh"), form.equals("sat"));
            long actual = c.apply(f);
            if (actual != expected && mismatches.size() < 10) {
                mismatches.add(String.format("float 0x%08X: pseudo-code 0x%02X, reference 0x%02X", f, expected, actual));
            }
        });
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }

    @Test
    void everyCodeDecodesAsTheResearchNotesSay() {
        Reference r = TestProfile.reference();
        Converter toFloat = r.converter(r.resolve("hifloat8", "float", "rn", "nosat", r.ctrl("")));
        for (int code = 0; code < 256; code++) {
            Value v = IndependentDecoder.decode("hifloat8", code);
            float f = Float.intBitsToFloat((int) toFloat.apply(code));
            switch (v.kind()) {
                case NAN -> assertTrue(Float.isNaN(f), "code " + code);
                case INFINITE -> assertEquals(v.negative() ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY, f);
                default -> assertEquals(v.signed().floatValue(), f, "code 0x" + Integer.toHexString(code));
            }
        }
    }

    @Test
    void decisionHrBandSelectsTheHelpersReading() {
        // 45119.996 (formats.md 1.7): the pseudo-code rounds down to 32768, the Python helpers give inf.
        assertEquals(0x6E, converter("float", "rh", "nosat", Map.of()).apply(0x47303FFF));
        assertEquals(0x6F, converter("float", "rh", "nosat", Map.of("hr-band", "ta-threshold")).apply(0x47303FFF));
        assertEquals(0x6E, converter("float", "rh", "sat", Map.of("hr-band", "ta-threshold")).apply(0x47303FFF));
    }

    @Test
    void decisionHrExactKeepsRepresentableValues() {
        assertEquals(0x41, converter("float", "rh", "nosat", Map.of()).apply(0x41800000), "16.0 -> 20.0 by default");
        assertEquals(0x40, converter("float", "rh", "nosat", Map.of("hr-exact", "keep")).apply(0x41800000));
        assertEquals(0x6E, converter("float", "rh", "nosat", Map.of("hr-exact", "keep")).apply(0x47000000));
    }
}
