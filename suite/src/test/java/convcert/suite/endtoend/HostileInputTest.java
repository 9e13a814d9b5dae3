package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Input from outside is data, never control: recordings that lie or are not files, tables with control
 * characters, text that would break XML, a console or a properties file, bytes a device sends late, a
 * report folder that cannot be written, a program that does not exist. Each row: the fault, the exit
 * code, what is said.
 */
class HostileInputTest {

    @TempDir
    Path temp;

    /** A recording of float->fp8_e4m3fn rn nosat: the vector set's inputs beside the reference's outputs. */
    private Path recording() throws IOException {
        Path pair = Files.createDirectories(temp.resolve("rec/ascend-c/float-fp8_e4m3fn"));
        Path vectors = Fixtures.HOME.resolve("vectors/ascend-c/float-fp8_e4m3fn");
        Files.copy(vectors.resolve("rn-nosat.in.bin"), pair.resolve("rn-nosat.in.bin"));
        Files.copy(vectors.resolve("rn-nosat.expected.bin"), pair.resolve("rn-nosat.out.bin"));
        return pair;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        an input recorded twice with another output | 3 | twice with different outputs
        a recording that is a FIFO                  | 2 | is not a regular file
        a recording linked to /dev/zero             | 2 | is not a regular file
        """)
    void aRecordingThatLiesIsRefused(String fault, int exit, String message) throws Exception {
        Path pair = recording();
        Path out = pair.resolve("rn-nosat.out.bin");
        switch (fault) {
            case "a recording that is a FIFO" -> {
                Files.delete(out);
                assertEquals(0, new ProcessBuilder("mkfifo", out.toString()).start().waitFor());
            }
            case "a recording linked to /dev/zero" -> {
                Files.delete(out);
                Files.createSymbolicLink(out, Path.of("/dev/zero"));
            }
            default -> { // the first input again at the end, with another output than its first
                byte[] in = Files.readAllBytes(pair.resolve("rn-nosat.in.bin"));
                byte[] outputs = Files.readAllBytes(out);
                Files.write(pair.resolve("rn-nosat.in.bin"), ByteBuffer.allocate(in.length + 4).put(in).put(in, 0, 4).array());
                Files.write(out, ByteBuffer.allocate(outputs.length + 1).put(outputs).put((byte) (outputs[0] ^ 1)).array());
            }
        }
        long start = System.nanoTime();
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--adapter", "replay:dir=" + temp.resolve("rec"));
        RobustnessTest.outcome(r, temp.resolve("report")).expect(exit, message);
        assertTrue((System.nanoTime() - start) / 1e9 < 60, "a recording is never read without end");
    }

    @Test
    void aNulByteInATableIsNamedWhereItIs() throws IOException {
        Path tables = Files.createDirectories(temp.resolve("tables"));
        try (Stream<Path> files = Files.list(Fixtures.HOME.resolve("spec-tables/ascend-c"))) {
            for (Path f : files.toList()) {
                Files.copy(f, tables.resolve(f.getFileName()));
            }
        }
        List<String> lines = Files.readAllLines(tables.resolve("formats.csv"));
        lines.set(2, lines.get(2).substring(0, 3) + "\0" + lines.get(2).substring(3));
        Files.write(tables.resolve("formats.csv"), lines);
        RobustnessTest.outcome(Fixtures.run("", "tables", "check", "--tables", tables.toString()), null)
                .expect(2, "formats.csv:3:4: control character U+0000");
    }

    @Test
    void textThatWouldBreakTheReportsIsWrittenSafely() throws Exception {
        Path pair = recording();
        byte[] outputs = Files.readAllBytes(pair.resolve("rn-nosat.out.bin"));
        outputs[7] ^= 1;
        Files.write(pair.resolve("rn-nosat.out.bin"), outputs);
        Path odd = Files.createDirectories(temp.resolve("odd\uFFFFname\rinjected=1"));
        Files.move(temp.resolve("rec"), odd.resolve("rec"));
        Path waivers = temp.resolve("w.csv");
        Files.writeString(waivers, "case,reason,expires\nfloat->fp8_e4m3fn/rn-nosat,\"a reason with ]]> in it\",2999-01-01\n");
        Path report = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(report, "--adapter", "replay:dir=" + odd.resolve("rec"), "--waivers",
                waivers.toString());
        assertEquals(5, r.exit(), r.out() + r.err()); // the one case is waived
        String xml = Fixtures.junitXml(report); // well-formed, and valid JUnit XML
        assertTrue(xml.contains("]]&gt;") && !xml.contains("\uFFFF"), xml);
        Properties environment = new Properties();
        environment.load(new StringReader(Files.readString(report.resolve("allure-results/environment.properties"))));
        assertFalse(environment.containsKey("injected"), environment.toString());
    }

    @Test
    void controlSequencesFromANativeLibraryReachTheConsoleEscaped() throws Exception {
        Path source = temp.resolve("loud.c");
        Files.writeString(source, """
                #include <stdint.h>
                const char *convcert_capabilities(void) { return "float half rn nosat\\n"; }
                int convcert_convert(const char *a, const char *b, const char *c, const char *d, const char *e,
                                     const char *f, const void *in, void *out, uint64_t n) { return n == 0 ? 0 : 1; }
                const char *convcert_last_error(void) { return "\\x1b[2J\\x1b[31mred\\xe2\\x80\\xae txet"; }
                """);
        Path lib = temp.resolve("libloud.so");
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", lib.toString(), source.toString()).start();
        assertTrue(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0);
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--adapter", "native:lib=" + lib, "--pair", "float:half");
        assertEquals(3, r.exit(), r.out() + r.err());
        String console = r.out() + r.err();
        assertTrue(console.contains("red") && !console.contains("\u001b") && !console.contains("\u202e"), console);
    }

    @Test
    void bytesADeviceSendsLateFailTheCaseThatSentThem() throws Exception {
        Path dev = temp.resolve("late.py");
        Files.writeString(dev, """
                import sys, time
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float half rn nosat\\nCAP float half rz nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1]); sys.stdin.buffer.read(4 * n)
                    sys.stdout.buffer.write(b"OK %d\\n" % n + bytes(2 * n)); sys.stdout.flush()
                    if n > 0 and w[3] == b"rn":
                        time.sleep(0.15)
                        sys.stdout.buffer.write(b"late"); sys.stdout.flush()
                """);
        Path report = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(report, "--adapter", "process:cmd=python3 " + dev, "--pair", "float:half",
                "--only", "float->half/r*-nosat");
        assertEquals(3, r.exit(), r.out() + r.err());
        String rn = Fixtures.find(Fixtures.report(report), "float->half/rn-nosat").get("message").asText();
        assertTrue(rn.contains("bytes after the answer to float->half/rn-nosat"), rn);
    }

    @Test
    void waiversAreJudgedOnTheUtcDateAndTheReportSaysWhich() throws IOException {
        Path waivers = temp.resolve("w.csv");
        Files.writeString(waivers, "case,reason,expires\nfloat->half/rn-nosat,known,2999-01-01\n");
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--pair", "float:half", "--waivers", waivers.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Fixtures.report(temp.resolve("report")).get("notes").toString()
                .contains("waivers judged on " + LocalDate.now(ZoneOffset.UTC) + " (UTC)"));
    }

    @Test
    void filesConvcertDidNotWriteInTheReportFolderStay() throws IOException {
        Path report = temp.resolve("report");
        Path foreign = Files.createDirectories(report.resolve("allure-results")).resolve("0001-result.json");
        Files.writeString(foreign, "{\"someone\": \"else\"}");
        for (int run = 0; run < 2; run++) {
            assertEquals(0, Fixtures.certify(report, "--pair", "float:half").exit());
        }
        assertTrue(Files.exists(foreign), "a result convcert did not write was removed");
    }

    @Test
    void aReportThatCannotBeWrittenFailsTheRun() throws IOException {
        Path report = temp.resolve("report");
        Files.createDirectories(report.resolve("conformance.json/in-the-way"));
        Fixtures.Run r = Fixtures.certify(report, "--pair", "float:half");
        RobustnessTest.outcome(r, null).expect(4, "cannot write");
        assertTrue((r.out() + r.err()).contains("conformance.json"), r.out() + r.err());
        assertFalse(r.out().contains("PASS"), r.out());
    }

    @Test
    void aProgramThatDoesNotExistIsOneUsageError() throws IOException {
        long start = System.nanoTime();
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--adapter", "process:cmd=/no/such/device");
        RobustnessTest.outcome(r, null).expect(2, "cannot run '/no/such/device'");
        assertTrue((System.nanoTime() - start) / 1e9 < 10);
    }

    @Test
    void anOnlyThatSelectsNothingIsNamedInTheReport() throws IOException {
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--only", "flaot->*");
        assertEquals(5, r.exit());
        assertTrue(Fixtures.report(temp.resolve("report")).get("notes").toString().contains("--only 'flaot->*'"));
    }

    @Test
    void anInterruptedDriftCheckLeavesNoTemporaryFolder() throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        ProcessBuilder pb = new ProcessBuilder(IsolationTest.launcherCommand("generate", "--check"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp);
        Process p = pb.start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline && !hasEntries(tmp, "convcert-drift")) {
            Thread.sleep(50);
        }
        assertTrue(hasEntries(tmp, "convcert-drift"), "the check started");
        p.toHandle().descendants().forEach(h -> h.destroy()); // SIGTERM, as a cancelled CI job
        p.waitFor(60, TimeUnit.SECONDS);
        assertFalse(hasEntries(tmp, "convcert-drift"), "the regenerated set was left in " + tmp);
    }

    private static boolean hasEntries(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(prefix));
        }
    }
}
