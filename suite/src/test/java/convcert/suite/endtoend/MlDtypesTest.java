package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ml_dtypes, the other peer for the OCP MX elements (suite/devices/ml-dtypes/dut.py), certified live
 * where it is installed (.ci/run installs it) and compared with the committed reports in
 * reports/devices/ml-dtypes/: the same verdict, case by case, with the profile's defaults and with
 * the decisions that describe ml_dtypes.
 */
class MlDtypesTest {

    static final Path REPORTS = Fixtures.HOME.resolve("reports/devices/ml-dtypes");
    static final String DEVICE = "process:cmd=python3 " + Fixtures.HOME.resolve("suite/devices/ml-dtypes/dut.py");

    @TempDir
    Path temp;

    static boolean installed() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import ml_dtypes").redirectErrorStream(true).start();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private void sameVerdicts(String folder, List<String> decisions) throws IOException {
        sameVerdicts(folder, "ocp-mx", 1, decisions);
    }

    private void sameVerdicts(String folder, String profile, int exit, List<String> decisions) throws IOException {
        sameVerdicts(folder, exit, decisions, "--profile", profile, "--level", "ci");
    }

    private void sameVerdicts(String folder, int exit, List<String> decisions, String... selection) throws IOException {
        assumeTrue(installed(), "ml_dtypes is not installed here (pip install ml_dtypes; .ci/run installs it)");
        List<String> args = new java.util.ArrayList<>(List.of(selection));
        args.addAll(List.of("--adapter", DEVICE));
        decisions.forEach(d -> args.addAll(List.of("--decision", d)));
        Fixtures.Run r = Fixtures.certify(temp.resolve(folder), args.toArray(String[]::new));
        assertEquals(exit, r.exit(), r.out() + r.err());
        JsonNode now = Fixtures.report(temp.resolve(folder));
        JsonNode committed = Fixtures.report(REPORTS.resolve(folder));
        Fixtures.sameCases(committed, now, List.of("name", "status", "mismatches", "kinds", "where"));
    }

    /** name -> status, mismatches, kinds and where the mismatches lie. */
    private static Map<String, String> verdicts(JsonNode report) {
        Map<String, String> v = new TreeMap<>();
        for (JsonNode c : report.get("cases")) {
            v.put(c.get("name").asText(), c.get("status").asText() + " " + c.get("mismatches") + " " + c.get("kinds")
                    + " " + c.get("where"));
        }
        return v;
    }

    @Test
    void underTheProfilesDefaultsMlDtypesDiffersOnNanZeroAndNegativeScales() throws IOException {
        sameVerdicts("default", List.of());
    }

    /** AMD's FNUZ types and OCP's FP8 under HIP's rules: ml_dtypes agrees on every applicable case. */
    @Test
    void theFnuzCastsPassTheRocmProfile() throws IOException {
        sameVerdicts("rocm", "rocm", 0, List.of());
    }

    /**
     * The FNUZ types are IEEE P3109's binary8p4sf and binary8p3sf, and ml_dtypes' casts its (rn, SatNone)
     * projection: every float32, float16 and bfloat16 input of the full level agrees, and every code back.
     */
    @Test
    void theFnuzCastsAreP3109sFiniteFormatsUnderSatNone() throws IOException {
        List<String> selection = new java.util.ArrayList<>(List.of("--profile", "p3109", "--level", "full"));
        for (String format : List.of("binary8p4sf", "binary8p3sf")) {
            for (String source : List.of("float", "half", "bfloat16")) {
                selection.addAll(List.of("--pair", source + ":" + format, "--pair", format + ":" + source));
            }
        }
        sameVerdicts("p3109", 0, List.of(), selection.toArray(String[]::new));
    }

    /** From float64 ml_dtypes rounds through float32 first: every double source fails, diagnosed via-float. */
    @Test
    void itsFloat64CastsRoundTwice() throws IOException {
        sameVerdicts("cuda", "cuda", 1, List.of());
        JsonNode report = Fixtures.report(REPORTS.resolve("cuda"));
        for (String c : List.of("double->fp8_e4m3fn/rn-nosat", "double->fp8_e5m2/rn-nosat", "double->bfloat16/rn-nosat")) {
            assertEquals("via-float", Fixtures.find(report, c).get("diagnosisData").get("faults").get(0).get("fault")
                    .asText(), c);
        }
        assertEquals("PASS", Fixtures.find(report, "float->fp8_e4m3fn/rn-nosat").get("status").asText());
    }

    /**
     * APFloat's IEEE-like FP8 types (Float8E4M3, Float8E3M4, with infinities) and E4M3B11FNUZ are ml_dtypes' too: a
     * peer of the llvm profile that is not its reference. Every float, half and bfloat16 source and every code back
     * agree; the double sources round through float, as under cuda (ml_dtypes claims no LLVM semantics: a
     * difference from that profile, not a defect).
     */
    @Test
    void itsIeeeLikeFp8CastsAreLlvmsRoundToNearestWithoutSaturation() throws IOException {
        sameVerdicts("llvm", "llvm", 1, List.of());
        JsonNode report = Fixtures.report(REPORTS.resolve("llvm"));
        assertEquals(27, report.get("summary").get("passed").asInt());
        for (String c : List.of("double->fp8_e4m3/rn-nosat", "double->fp8_e3m4/rn-nosat", "double->fp8_e5m2/rn-nosat")) {
            assertEquals("via-float", Fixtures.find(report, c).get("diagnosisData").get("faults").get(0).get("fault")
                    .asText(), c);
        }
        for (String c : List.of("float->fp8_e4m3/rn-nosat", "half->fp8_e3m4/rn-nosat", "fp8_e4m3b11fnuz->half/rn-nosat")) {
            assertEquals("PASS", Fixtures.find(report, c).get("status").asText(), c);
        }
    }

    @Test
    void underItsOwnDecisionsTwoQuirksRemain() throws IOException {
        sameVerdicts("ml-dtypes-decisions", List.of("unsigned-negative=nan", "exponent-zero=nan", "finite-nan=zero"));
        Map<String, String> v = verdicts(Fixtures.report(REPORTS.resolve("ml-dtypes-decisions")));
        // NaN -> -0 for positive NaNs (sign of zero), and E8M0 rn rounding float values just above 2^-127 up
        assertEquals("FAIL 22 {\"one step (rounding)\":22} {\"2^-127\":22}", v.get("float->e8m0/rn-nosat"));
        assertEquals("FAIL 6 {\"sign of zero\":6} {\"NaN\":6}", v.get("float->fp4_e2m1/rn-sat"));
    }
}
