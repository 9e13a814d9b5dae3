package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenCL memory functions and as_type through the suite: the reference and the example C device
 * (process protocol) pass and refuse misaligned addresses; PoCL, where an OpenCL platform is
 * installed (.ci/run installs it), gives the verdicts committed in reports/devices/pocl (float's cases in
 * every tier, all 741 in the extended one), and fails vstorea_half3 only under the 1.2 pages' reading of
 * its padding.
 */
@Tag("slow") // left out by ./convcert test --quick
class OpenClTest {

    @Test
    void theReferencePassesEveryMemoryCaseAndRefusesNegativeVectors(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--profile", "opencl", "--adapter", "reference", "--only", "*memory");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        JsonNode vstore = Fixtures.find(report, "int->vstore/x4-memory");
        assertEquals("PASS", vstore.get("status").asText());
        JsonNode sizes = Fixtures.find(report, "float->as_double/x4-memory"); // 16 vs 32 bytes: an error
        assertEquals("PASS", sizes.get("status").asText(), "as_type across sizes is refused, as expected");
        assertTrue(Fixtures.find(report, "int->as_short/1->2-memory").get("message").asText()
                .startsWith("implementation-defined, recorded not judged"));
    }

    @Test
    void theCDevicePassesItsMemoryCasesOverTheProcessProtocol(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--profile", "opencl", "--adapter", "process:cmd=" + Fixtures.exampleDevice(),
                "--only", "*memory");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        assertEquals(150, report.get("summary").get("passed").asInt(), "vload/vstore of 9 types x 5 widths, as_type");
        JsonNode misaligned = Fixtures.find(report, "long->vload/x2-memory");
        assertTrue(misaligned.get("vectors").asInt() > 16, "negative vectors go to an adapter that checks alignment");
    }

    /** The forms a conversion goes through can be narrowed to find the one that fails; a typo is a usage error. */
    @Test
    void aFormOptionOutsideOpenClIsAUsageError(@TempDir Path out) {
        for (String[] bad : new String[][] {{"widths=5", "widths=W+W+... of 1, 2, 3, 4, 8, 16, got '5'"},
                {"widths=1+1", "got '1+1'"}, {"spellings=some", "spellings=all or spellings=named, got 'some'"}}) {
            Fixtures.Run r = Fixtures.certify(out.resolve(bad[0]), "--profile", "opencl", "--level", "quick",
                    "--pair", "float:int32", "--adapter", "opencl:" + bad[0]);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().strip().endsWith(bad[1]), r.err());
        }
    }

    /** PoCL certified under a selection, every case as in the committed report; false: no OpenCL platform here. */
    static boolean poclGivesTheCommittedVerdicts(Path out, String... selection) throws Exception {
        Fixtures.Run probe = Fixtures.certify(out.resolve("probe"), "--profile", "opencl", "--adapter", "opencl",
                "--only", "int->vload/x2-memory");
        if (probe.exit() == 2) {
            return false;
        }
        // three of the six widths (scalar, the odd 3, the widest 16); the committed report went through all six,
        // and every width must give the same verdicts
        List<String> args = new ArrayList<>(List.of("--profile", "opencl", "--level", "ci", "--adapter",
                "opencl:widths=1+3+16"));
        args.addAll(List.of(selection));
        Fixtures.Run r = Fixtures.certify(out.resolve("run"), args.toArray(String[]::new));
        assertEquals(0, r.exit(), "PoCL 3.1 passes the current OpenCL C text (reports/devices/pocl/README.md)\n"
                + r.out() + r.err());
        JsonNode now = Fixtures.report(out.resolve("run"));
        JsonNode committed = Fixtures.report(Fixtures.HOME.resolve("reports/devices/pocl"));
        Map<String, JsonNode> byName = new HashMap<>();
        committed.get("cases").forEach(c -> byName.put(c.get("name").asText(), c));
        for (JsonNode c : now.get("cases")) {
            JsonNode earlier = byName.get(c.get("name").asText());
            assertTrue(earlier != null, "not in the committed report: " + c.get("name"));
            for (String field : List.of("status", "vectors", "mismatches")) {
                assertEquals(earlier.get(field), c.get(field), c.get("name") + " " + field);
            }
        }
        if (selection.length == 0) {
            assertEquals(committed.get("cases").size(), now.get("cases").size(), "every committed case");
        }
        return true;
    }

    /**
     * Every conversion and memory function of float (136 of the 741 cases): PoCL compiles a kernel for each
     * case, about a third of a second each with an empty cache, as on a fresh CI machine (docs/performance.md).
     */
    @Test
    void poclGivesTheCommittedVerdictsForFloat(@TempDir Path out) throws Exception {
        assumeTrue(poclGivesTheCommittedVerdicts(out, "--only", "float->*"), "no OpenCL platform here");
        assertEquals(136, Fixtures.report(out.resolve("run")).get("cases").size(), "float's cases");
        // the 1.2 pages' reading of vstorea_half3's padding, selectable: PoCL writes the slot (0x0000)
        Fixtures.Run strict = Fixtures.certify(out.resolve("untouched"), "--profile", "opencl", "--level", "ci",
                "--adapter", "opencl", "--only", "float->vstorea_half*/x3-memory", "--decision",
                "aligned-half3-padding=untouched");
        assertEquals(1, strict.exit(), strict.out() + strict.err());
        assertTrue(strict.out().contains("expected 00000080007C199C") && strict.out().contains("actual 00000080007C0000"),
                strict.out());
    }

    @Tag("extended") // 741 cases: about 4 minutes with PoCL's cache empty, a minute with it full
    @Test
    void poclGivesTheCommittedVerdictsForEveryCase(@TempDir Path out) throws Exception {
        assumeTrue(poclGivesTheCommittedVerdicts(out), "no OpenCL platform here");
    }
}
