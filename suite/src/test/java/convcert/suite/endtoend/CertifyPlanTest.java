package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** certify --plan: the cases and vectors a run would certify, a measured estimate, and nothing written. */
class CertifyPlanTest {

    static long number(String out, String label) {
        Matcher m = Pattern.compile("(?m)^  " + label + " +([0-9,]+)").matcher(out);
        assertTrue(m.find(), label + " in\n" + out);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void thePlanCountsWhatTheRunCertifies(@TempDir Path temp) throws IOException {
        String[] selection = {"--profile", "p3109", "--level", "quick", "--adapter", "reference", "--pair", "half:binary8p3se"};
        Path out = temp.resolve("report");
        String[] plan = new String[selection.length + 3];
        System.arraycopy(selection, 0, plan, 0, selection.length);
        plan[selection.length] = "--plan";
        plan[selection.length + 1] = "--out";
        plan[selection.length + 2] = out.toString();
        Fixtures.Run p = Fixtures.run("", java.util.stream.Stream.concat(java.util.stream.Stream.of("certify"),
                java.util.Arrays.stream(plan)).toArray(String[]::new));
        assertEquals(5, p.exit(), "a plan certifies nothing: exit 5, never a pass\n" + p.out() + p.err());
        assertFalse(Files.exists(out), "a plan writes no report");
        assertTrue(p.out().contains("cases        27 planned, 27 applicable"), "9 modes x 3 saturation modes\n" + p.out());
        assertTrue(p.out().matches("(?s).*calibration  27 cases, [0-9,]+ vectors in [0-9.]+ s: [0-9,]+ vectors/s.*"), p.out());
        assertTrue(p.out().contains("  estimate     about "), p.out());
        // the pair's states as a capability line names them, the adapter's starred: no need to read the tables for them
        assertTrue(p.out().matches("(?s).*\n {15}half binary8p3se: [^\\n]*rn satfinite\\*[^\\n]*rz satnone\\*.*"), p.out());
        Fixtures.Run r = Fixtures.certify(out, selection);
        assertEquals(0, r.exit(), r.out() + r.err());
        for (com.fasterxml.jackson.databind.JsonNode c : Fixtures.report(out).get("cases")) { // the plan names every case
            assertTrue(p.out().contains("  case         " + c.get("name").asText() + ": " + String.format("%,d", c.get("vectors")
                    .asLong()) + " vectors\n"), c.get("name") + " in\n" + p.out());
        }
        assertEquals(Fixtures.report(out).path("summary").path("certifiedVectors").asLong(), number(p.out(), "vectors"));
    }

    @Test
    void anExhaustivePlanCalibratesOnSlicesAndCountsItsShard() {
        Fixtures.Run p = Fixtures.run("", "certify", "--plan", "--profile", "ascend-c", "--exhaustive", "--pair", "float:half",
                "--only", "float->half/r*-nosat", "--adapter", "reference");
        assertEquals(5, p.exit(), "a plan certifies nothing: exit 5, never a pass\n" + p.out() + p.err());
        assertEquals(6L << 32, number(p.out(), "vectors"), "rn rna rd ru rz ro, 2^32 inputs each\n" + p.out());
        assertTrue(p.out().contains("calibration  1 case, "), p.out());
        Fixtures.Run shard = Fixtures.run("", "certify", "--plan", "--profile", "ascend-c", "--exhaustive", "--pair",
                "float:half", "--only", "float->half/rn-nosat", "--shard", "2/4", "--adapter", "reference");
        assertEquals(1L << 30, number(shard.out(), "vectors"), "a quarter of 2^32\n" + shard.out());
        assertEquals(5, shard.exit());
        assertTrue(shard.out().strip().endsWith("plan only: nothing certified (exit 5)"), shard.out());
    }

    @Test
    void aPlanOfNothingSaysTheRunWouldCertifyNothing() {
        Fixtures.Run p = Fixtures.run("", "certify", "--plan", "--profile", "p3109", "--level", "quick", "--pair",
                "half:binary8p3se", "--adapter", "jdk");
        assertEquals(5, p.exit(), "a plan certifies nothing: exit 5, never a pass\n" + p.out() + p.err());
        assertTrue(p.out().contains("27 planned, 0 applicable") && p.out().contains("would certify nothing (exit 5)"), p.out());
    }
}
