package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An interrupted certification (Ctrl-C, a CI job cancelled) ends with exit 130 or 143 and reports
 * marked partial everywhere, every planned case present, the unfinished ones NOT_RUN, written once
 * and readable. The CLI runs in a JVM of its own here, so the signal reaches only it.
 */
@Tag("slow") // left out by ./convcert test --quick
class InterruptTest {

    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void anInterruptedRunWritesPartialReports(String signal, int exit, @TempDir Path temp) throws Exception {
        // a shell starts a background job with SIGINT ignored, and a JVM that inherits that never sees Ctrl-C
        assumeFalse(signal.equals("INT") && ignoresSigint(), "SIGINT is ignored here (a background job), as it"
                + " will be in the CLI this test starts: start the build in the foreground to test it");
        Path device = temp.resolve("slow.py");
        Files.writeString(device, """
                import sys, time
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float half * nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1]); sys.stdin.buffer.read(4 * n); time.sleep(0.4)
                    sys.stdout.buffer.write(b"OK %d\\n" % n + bytes(2 * n)); sys.stdout.flush()
                """);
        Path out = temp.resolve("out");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process cli = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dconvcert.home=" + Fixtures.HOME, "convcert.suite.Main", "certify", "--adapter",
                "process:cmd=python3 " + device, "--pair", "float:half", "--only", "float->half/*-nosat*", "--out",
                out.toString())).redirectOutput(temp.resolve("stdout.txt").toFile())
                .redirectError(temp.resolve("stderr.txt").toFile()).start();
        Path json = out.resolve("conformance.json");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(out.resolve("allure-results")) || countResults(out) < 2) {
            assertTrue(System.nanoTime() < deadline && cli.isAlive(), "the run never got going");
            Thread.sleep(100);
        }
        new ProcessBuilder("kill", "-" + signal, Long.toString(cli.pid())).start().waitFor();
        assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the interrupted run ends");
        String stdout = Files.readString(temp.resolve("stdout.txt"));
        String stderr = Files.readString(temp.resolve("stderr.txt"));
        assertEquals(exit, cli.exitValue(), stdout + stderr);
        assertFalse(stderr.contains("Exception"), stderr);
        assertTrue(stdout.contains("convcert: interrupted; partial reports in"), stdout);
        assertTrue(stdout.contains("INTERRUPTED (partial report, "), stdout);

        JsonNode report = Fixtures.report(out);
        assertTrue(report.get("partial").asBoolean());
        JsonNode summary = report.get("summary");
        assertTrue(summary.get("notRun").asInt() > 0, summary.toString());
        int planned = 0;
        for (JsonNode c : report.get("cases")) {
            planned++;
            if (c.get("status").asText().equals("NOT_RUN")) {
                assertEquals("not run: the run was interrupted", c.get("message").asText());
            }
        }
        assertEquals(6 * 4 + 4, planned, "every planned case is in the report (6 modes x 4 variants + 4 implicit rn)");
        assertTrue(Files.readString(out.resolve("conformance.html")).contains("Partial report"));
        String xml = Fixtures.junitXml(out);
        assertTrue(xml.contains("(partial: interrupted)") && xml.contains("type=\"not_run\""), xml.substring(0, 300));
        assertTrue(countResults(out) >= planned, "an Allure result per case, the unfinished ones broken");
    }

    /** Whether this process ignores SIGINT (/proc/self/status, SigIgn: bit 1 of the mask is signal 2). */
    static boolean ignoresSigint() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        return Files.isReadable(status) && Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:"))
                .anyMatch(l -> (Long.parseLong(l.substring(7).strip(), 16) & 2) != 0);
    }

    /** Ctrl-C of generate --check while it regenerates: its temporary set is removed, the writers' threads still running. */
    @org.junit.jupiter.api.Test
    void anInterruptedDriftCheckLeavesNoTemporarySet(@TempDir Path temp) throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process cli = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Djava.io.tmpdir=" + tmp, "-Dconvcert.home=" + Fixtures.HOME, "convcert.suite.Main", "generate",
                "--check", "--level", "ci")).redirectErrorStream(true).redirectOutput(temp.resolve("out.txt").toFile()).start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (countFiles(tmp) < 20) { // the regenerated set is being written
            assertTrue(System.nanoTime() < deadline && cli.isAlive(), "generate --check never got going: "
                    + Files.readString(temp.resolve("out.txt")));
            Thread.sleep(50);
        }
        new ProcessBuilder("kill", "-INT", Long.toString(cli.pid())).start().waitFor();
        assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the interrupted check ends");
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "left in the temporary folder");
        }
    }

    /** Files below dir; 0 when the generator renames or removes one mid-walk (the caller looks again). */
    private static long countFiles(Path dir) throws java.io.IOException {
        try (var files = Files.walk(dir)) {
            return files.count();
        } catch (java.io.UncheckedIOException e) {
            return 0;
        }
    }

    private static long countResults(Path out) throws java.io.IOException {
        try (var files = Files.list(out.resolve("allure-results"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-result.json")).count();
        }
    }
}
