package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.common.Home;
import java.io.IOException;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the committed manifest tells an RTL bench besides the files (issue 40): element widths, the NaN rule of
 * the results, and the case in words, which say what the Ascend C document says (Table 4: under saturation a
 * NaN gives 0 and an infinity the largest finite value; CTRL[50]=1 keeps an fp8 NaN a NaN).
 */
class CaseWordsTest {

    private static Map<String, Manifest.Entry> committed() throws IOException {
        return Manifest.read(Home.vectors().resolve(Manifest.FILE)).cases().stream()
                .collect(Collectors.toMap(Manifest.Entry::name, Function.identity()));
    }

    @Test
    void everyValueCaseHasWidthsAndWords() throws IOException {
        for (Manifest.Entry e : committed().values()) {
            assertEquals(e.from(), e.elements().in().format(), e.name());
            assertEquals(e.to(), e.elements().out().format(), e.name());
            assertTrue(e.semantics().rounding().startsWith(e.rounding() + ": "), e.name());
            assertTrue(e.semantics().compare().contains(e.elements().out().nan() == null ? "bit for bit" : "any NaN of " + e.to()),
                    e.name());
        }
    }

    @Test
    void saturationInWordsIsTheDocumentsTable4() throws IOException {
        Map<String, Manifest.Entry> cases = committed();
        Manifest.Entry sat = cases.get("ascend-c/float-half/rn-sat");
        assertEquals(new Manifest.Element("float", 32, 4, new Manifest.NanRule("0x7F800000", "0x7F800000", "0x007FFFFF")),
                sat.elements().in());
        assertEquals(new Manifest.Element("half", 16, 2, new Manifest.NanRule("0x7C00", "0x7C00", "0x03FF")), sat.elements().out());
        assertEquals("NaN 0x7FC00000 gives 0x0000 (0.0), NaN 0xFFC00000 gives 0x0000 (0.0)", sat.semantics().nan());
        assertEquals("+inf 0x7F800000 gives 0x7BFF (65504.0), -inf 0xFF800000 gives 0xFBFF (-65504.0)", sat.semantics().infinity());
        assertTrue(cases.get("ascend-c/float-half/rn-nosat").semantics().nan().startsWith("NaN 0x7FC00000 gives 0x7E00 (nan)"));
        assertTrue(cases.get("ascend-c/float-fp8_e4m3fn/rn-sat-keepnan").semantics().nan().contains("gives 0x7F (nan)"));
        Manifest.Entry integer = cases.get("ascend-c/float-int32/rz-sat");
        assertNull(integer.elements().out().nan(), "an integer has no NaN");
        assertEquals("bit for bit", integer.semantics().compare());
    }
}
