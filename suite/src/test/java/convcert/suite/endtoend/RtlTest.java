package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example RTL (suite/devices/rtl) under Verilator 5: the $readmemh testbench's recording replays
 * to a pass, the Verilated model certifies every variant through the process protocol, and the
 * planted bug fails with the fault catalogue's diagnosis. Skipped, and said so, without verilator.
 */
@Tag("slow") // six Verilator builds: about 45 s
class RtlTest {

    static final Path RTL = Fixtures.HOME.resolve("suite/devices/rtl");

    @TempDir
    Path temp;

    static boolean verilator() {
        try {
            return new ProcessBuilder("verilator", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static void runSh(String defines, String... args) throws IOException, InterruptedException {
        runSh(0, defines, args);
    }

    /** run.sh's output, its exit status held to the one expected. */
    private static String runSh(int exit, String defines, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", RTL.resolve("run.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DEFINES", defines);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(exit, p.waitFor(), "run.sh " + String.join(" ", args) + ":\n" + output);
        return output;
    }

    /**
     * golden_tb.sv, the golden files as they are in a self-checking bench (run.sh check): the example RTL passes
     * every case; an RTL that gives another NaN passes too, as certify would (the manifest's NaN rule), though a
     * bit-for-bit bench fails it; the planted ties-away bug fails exactly the rn cases.
     */
    @Test
    void theGoldenBenchComparesAsCertifyDoes() throws Exception {
        assumeTrue(verilator(), "verilator is not installed (apt-get install verilator; .ci/run installs it)");
        String vectors = Fixtures.HOME.resolve("vectors").toString();
        assertTrue(runSh(0, "", "check", temp.resolve("good").toString(), vectors).contains("16 cases passed, 0 failed"));
        String otherNaN = runSh(0, "+define+PLANTED_CANONICAL_NAN", "check", temp.resolve("nan").toString(), vectors);
        assertTrue(otherNaN.contains("float-bfloat16/rn-nosat: PASS 3056 vectors, 12 NaNs matched as NaNs"), otherNaN);
        String base = Fixtures.HOME.resolve("vectors/ascend-c/float-bfloat16/rn-nosat").toString();
        Process exact = new ProcessBuilder(temp.resolve("nan/golden/Vgolden").toString(), "+in=" + base + ".in.memh",
                "+expected=" + base + ".expected.memh", "+n=3056", "+out_bits=16", "+ctrl60=0", "+ctrl48=1",
                "+nan_mask=7F80", "+nan_equals=7F80", "+nan_nonzero=007F", "+any_nan=0").redirectErrorStream(true).start();
        String exactOut = new String(exact.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(exact.waitFor() != 0 && exactOut.contains("FAIL 12 of 3056"), exactOut);
        String ties = runSh(1, "+define+PLANTED_TIES_AWAY", "check", temp.resolve("ties").toString(), vectors);
        assertTrue(ties.contains("float-bfloat16/rn-nosat: FAIL 186 of 3056") && ties.contains("8 cases passed, 8 failed"), ties);
    }

    @Test
    void theRtlCertifiesBothWaysAndThePlantedBugIsDiagnosed() throws Exception {
        assumeTrue(verilator(), "verilator is not installed (apt-get install verilator; .ci/run installs it)");
        Path build = temp.resolve("rtl");
        runSh("", "build", build.toString());
        runSh("", "record", build.toString(), Fixtures.HOME.resolve("vectors").toString());
        String[] pairs = {"--pair", "float:bfloat16", "--pair", "float:fp8_e4m3fn", "--pair", "float:fp8_e5m2"};
        List<String> args = new java.util.ArrayList<>(List.of("--adapter", "replay:dir=" + build.resolve("recording")));
        args.addAll(List.of(pairs));
        Fixtures.Run replay = Fixtures.certify(temp.resolve("replay"), args.toArray(String[]::new));
        assertEquals(0, replay.exit(), replay.out() + replay.err());
        assertEquals(16, Fixtures.report(temp.resolve("replay")).get("summary").get("passed").asInt());
        args = new java.util.ArrayList<>(List.of("--adapter", "process:cmd=" + build.resolve("Vharness")));
        args.addAll(List.of(pairs));
        Fixtures.Run direct = Fixtures.certify(temp.resolve("direct"), args.toArray(String[]::new));
        assertEquals(0, direct.exit(), direct.out() + direct.err());
        assertEquals(76, Fixtures.report(temp.resolve("direct")).get("summary").get("passed").asInt(),
                "every form and CTRL variant of the 16 states");

        Path planted = temp.resolve("planted");
        runSh("+define+PLANTED_TIES_AWAY", "build", planted.toString());
        Fixtures.Run bug = Fixtures.certify(temp.resolve("bug"), "--adapter", "process:cmd=" + planted.resolve("Vharness"),
                "--pair", "float:bfloat16", "--only", "float->bfloat16/rn-nosat");
        assertEquals(1, bug.exit(), bug.out());
        JsonNode c = Fixtures.find(Fixtures.report(temp.resolve("bug")), "float->bfloat16/rn-nosat");
        assertTrue(c.get("diagnosis").asText().contains("ties-away"), c.toString());
    }
}
