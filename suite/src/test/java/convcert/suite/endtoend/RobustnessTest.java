package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No false green, no hang, no lying report. Each fault is one row: a misbehaving device, a damaged
 * vector folder or recording, a bad argument, with the exit code and the one-line message it must give
 * (and never a stack trace). Bad tables: BadTablesTest.
 */
class RobustnessTest {

    @TempDir
    Path temp;

    /** The output of a run: exit code, everything printed, and the case messages of its report (if any). */
    record Outcome(int exit, String text) {
        void expect(int code, String message) {
            assertEquals(code, exit, text);
            assertTrue(text.contains(message), () -> "expected '" + message + "' in\n" + text);
            assertFalse(text.contains("\tat ") || text.contains("Exception:"), () -> "a stack trace:\n" + text);
        }
    }

    static Outcome outcome(Fixtures.Run r, Path report) throws IOException {
        StringBuilder text = new StringBuilder(r.out()).append(r.err());
        if (report != null && Files.isRegularFile(report.resolve("conformance.json"))) {
            for (JsonNode c : Fixtures.report(report).get("cases")) {
                if (c.hasNonNull("message")) {
                    text.append('\n').append(c.get("message").asText());
                }
            }
        }
        return new Outcome(r.exit(), text.toString());
    }

    // ---- devices that misbehave ------------------------------------------------------------------

    /** A Python device: 'hello' runs after reading CONVCERT 1 and before the handshake; 'batch' answers a batch. */
    private Path device(String hello, String batch) throws IOException {
        Path script = temp.resolve("device.py");
        Files.writeString(script, """
                import os, sys, time
                sys.stdin.buffer.readline()
                %s
                sys.stdout.write("CAP float half rn nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1]); data = sys.stdin.buffer.read(4 * n)
                %s
                """.formatted(hello, batch.indent(4)));
        return script;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        hangs in the handshake   | time.sleep(600) | - | 3 | the device did not start: handshake: no answer within 1500 ms (does the device flush its output after each line?
        exits 0 at once          | sys.exit(0)     | - | 3 | the device did not start: handshake: the process closed its output; the process exited with code 0
        garbles the handshake    | print('HELLO', flush=True) | - | 3 | the device did not start: handshake: expected 'CAP FROM TO ROUNDING STATE'
        dies leaving a child     | - | (os.fork() == 0 and time.sleep(30)) or os._exit(3) | 3 | the process closed its output; the process exited with code 3
        sends bytes beyond its answer | - | sys.stdout.buffer.write(b"OK %d\\n" % n + bytes(2 * n) + b"xyz"); sys.stdout.flush() | 3 | 3 bytes beyond the answer to this batch
        """)
    void aMisbehavingDeviceIsAReportedFailure(String fault, String hello, String batch, int exit, String message)
            throws IOException {
        Path dev = device(hello.equals("-") ? "" : hello, batch.equals("-") ? "time.sleep(600)" : batch);
        long start = System.nanoTime();
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "process:cmd=python3 " + dev, "--timeout-ms", "1500",
                "--pair", "float:half", "--only", "float->half/rn-*");
        outcome(r, out).expect(exit, message);
        assertTrue(Files.isRegularFile(out.resolve("conformance.json")), "a report is written");
        assertTrue((System.nanoTime() - start) / 1e9 < 30, "bounded by the timeout, not by the device");
    }

    @Test
    void aDeviceThatDiesLeavesNoProcessBehind() throws Exception {
        String marker = "convcert-orphan-" + ProcessHandle.current().pid();
        Path dev = device("", "(os.fork() == 0 and os.execvp(sys.executable, [sys.executable, '-c', 'import time; time.sleep(120)', '"
                + marker + "'])) or os._exit(3)");
        long start = System.nanoTime();
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "process:cmd=python3 " + dev, "--timeout-ms", "20000",
                "--pair", "float:half", "--only", "float->half/r*-nosat");
        assertEquals(3, r.exit(), r.out() + r.err());
        assertTrue((System.nanoTime() - start) / 1e9 < 15, "a dead device is noticed at once, not at the timeout");
        Thread.sleep(300);
        List<String> left = ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> List.of(a)
                .contains(marker)).orElse(false)).map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList();
        assertTrue(left.isEmpty(), "orphans: " + left);
    }

    @Test
    void aNativeLibraryWithoutCapabilitiesIsAnErrorNotACrash() throws Exception {
        Path source = temp.resolve("null.c");
        Files.writeString(source, """
                #include <stdint.h>
                const char *convcert_capabilities(void) { return 0; }
                int convcert_convert(const char *a, const char *b, const char *c, const char *d, const char *e,
                                     const char *f, const void *in, void *out, uint64_t n) { return 1; }
                const char *convcert_last_error(void) { return 0; }
                """);
        Path lib = temp.resolve("libnull.so");
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", lib.toString(), source.toString())
                .redirectErrorStream(true).start();
        assertTrue(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0, new String(gcc.getInputStream().readAllBytes()));
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--adapter", "native:lib=" + lib, "--pair", "float:half");
        outcome(r, null).expect(2, "convcert_capabilities() of " + lib + " returned NULL");
    }

    // ---- damaged vector folders ---------------------------------------------------------------------

    /** A small vector set (float->fp8_e4m3fn, binary only) to damage. */
    private Path vectors() {
        Path dir = temp.resolve("vectors");
        Fixtures.Run r = Fixtures.run("", "generate", "--pair", "float:fp8_e4m3fn", "--pair", "float:half", "--format",
                "bin,csv", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err());
        return dir;
    }

    private static final String CASE = "ascend-c/float-fp8_e4m3fn/rn-nosat";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        an input file deleted          | rn-nosat.in.bin is missing
        expected values halved         | rn-nosat.expected.bin: 1183 bytes; manifest.json says 2366 elements of 8 bits (2366 bytes)
        inputs halved                  | rn-nosat.in.bin: 4732 bytes; manifest.json says 2366 elements of 32 bits (9464 bytes)
        both binary files emptied      | rn-nosat.in.bin: 0 bytes
        a wrong digest                 | rn-nosat.expected.bin: SHA-256 differs from manifest.json
        one bit changed                | rn-nosat.expected.bin: SHA-256 differs from manifest.json
        an absolute path               | lies outside the vector folder
        a path that climbs out         | lies outside the vector folder
        a folder as a file             | is not a file
        a case listed twice            | case ascend-c/float-fp8_e4m3fn/rn-nosat is listed twice
        a count of 0                   | case ascend-c/float-fp8_e4m3fn/rn-nosat has no vectors (count 0)
        an unknown type                | case ascend-c/float-fp8_e4m3fn/rn-nosat: unknown type 'fp9'
        an unknown rounding mode       | case ascend-c/float-fp8_e4m3fn/rn-nosat: unknown rounding mode 'rq'
        no binary layout               | the vector set has no binary layout
        a manifest that is not JSON    | manifest.json: not a valid manifest
        a file without its sha256      | rn-nosat.in.bin is listed without its sha256
        a CTRL bit ctrl.csv lacks      | CTRL[99] does not take part in conversions
        a CTRL key that is no number   | CTRL 'x=1' is not BIT=0 or BIT=1
        a case too large for memory    | 700000000 vectors need about
        """)
    void aDamagedVectorFolderIsRefusedBeforeAnyCaseRuns(String damage, String message) throws IOException {
        Path dir = vectors();
        Path manifest = dir.resolve("manifest.json");
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(manifest.toFile());
        ArrayNode cases = (ArrayNode) root.get("cases");
        ObjectNode entry = null;
        for (JsonNode c : cases) {
            if (c.get("name").asText().equals(CASE)) {
                entry = (ObjectNode) c;
            }
        }
        ObjectNode files = (ObjectNode) entry.get("files");
        Path in = dir.resolve(CASE + ".in.bin");
        Path expected = dir.resolve(CASE + ".expected.bin");
        switch (damage) {
            case "an input file deleted" -> Files.delete(in);
            case "expected values halved" -> Files.write(expected, halve(expected));
            case "inputs halved" -> Files.write(in, halve(in));
            case "both binary files emptied" -> {
                Files.write(in, new byte[0]);
                Files.write(expected, new byte[0]);
            }
            case "a wrong digest" -> ((ObjectNode) files.get(".expected.bin")).put("sha256", "0".repeat(64));
            case "one bit changed" -> {
                byte[] b = Files.readAllBytes(expected);
                b[5] ^= 1;
                Files.write(expected, b);
            }
            case "an absolute path" -> ((ObjectNode) files.get(".in.bin")).put("path", in.toAbsolutePath().toString());
            case "a path that climbs out" -> ((ObjectNode) files.get(".in.bin")).put("path", "../../../../../../etc/hostname");
            case "a folder as a file" -> ((ObjectNode) files.get(".in.bin")).put("path", "ascend-c");
            case "a case listed twice" -> cases.add(entry.deepCopy());
            case "a count of 0" -> entry.put("count", 0);
            case "an unknown type" -> entry.put("to", "fp9");
            case "an unknown rounding mode" -> entry.put("rounding", "rq");
            case "no binary layout" -> {
                files.remove(".in.bin");
                files.remove(".expected.bin");
            }
            case "a file without its sha256" -> ((ObjectNode) files.get(".in.bin")).remove("sha256");
            case "a CTRL bit ctrl.csv lacks" -> ((ObjectNode) entry.withArray("variants").get(0).get("ctrl")).put("99", 0);
            case "a CTRL key that is no number" -> ((ObjectNode) entry.withArray("variants").get(0).get("ctrl")).put("x", 1);
            case "a case too large for memory" -> { // sparse files of the sizes the count says: nothing is allocated
                entry.put("count", 700_000_000);
                try (var f = new java.io.RandomAccessFile(in.toFile(), "rw")) {
                    f.setLength(4L * 700_000_000);
                }
                try (var f = new java.io.RandomAccessFile(expected.toFile(), "rw")) {
                    f.setLength(700_000_000L);
                }
            }
            case "a manifest that is not JSON" -> {
                Files.writeString(manifest, "{ \"cases\": [");
                root = null;
            }
            default -> throw new IllegalArgumentException(damage);
        }
        if (root != null) {
            json.writeValue(manifest.toFile(), root);
        }
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "reference", "--vectors", dir.toString());
        outcome(r, out).expect(2, message);
        assertFalse(Files.exists(out.resolve("conformance.json")), "no report of a run that did not start");
    }

    private static byte[] halve(Path file) throws IOException {
        byte[] b = Files.readAllBytes(file);
        return java.util.Arrays.copyOf(b, b.length / 2);
    }

    @Test
    void anInterruptedGenerationLeavesNoManifestThatLies() throws IOException {
        Path dir = vectors();
        // A later generation that fails half way (a file it must write is a folder): the manifest is gone,
        // not left describing files that changed.
        Files.delete(dir.resolve(CASE + ".csv"));
        Files.createDirectories(dir.resolve(CASE + ".csv"));
        Fixtures.Run failed = Fixtures.run("", "generate", "--pair", "float:fp8_e4m3fn", "--format", "bin,csv",
                "--seed", "2", "--out", dir.toString());
        assertTrue(failed.exit() != 0, failed.out());
        assertFalse(Files.exists(dir.resolve("manifest.json")), "the old manifest no longer matches the files");
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--adapter", "reference", "--vectors", dir.toString());
        outcome(r, null).expect(2, "no manifest.json");
        Files.delete(dir.resolve(CASE + ".csv"));
        assertEquals(0, Fixtures.run("", "generate", "--pair", "float:fp8_e4m3fn", "--format", "bin,csv", "--seed", "2",
                "--out", dir.toString()).exit());
        assertEquals(0, Fixtures.certify(temp.resolve("out2"), "--adapter", "reference", "--vectors", dir.toString()).exit());
    }

    // ---- strict recordings --------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        a trailing odd byte      | 2 | rn-nosat.out.bin: 6165 bytes is not a whole number of 16-bit elements
        a memh value too wide    | 3 | is wider than 8 bits
        an empty folder          | 2 | no recordings (ROUNDING-STATE.out.bin or .out.memh) under
        a misnamed recording     | 2 | rn-nosta.out.bin names no case of profile ascend-c
        the wrong profile folder | 2 | has no folder ascend-c/ for the profile under certification (it has: cuda/)
        more outputs than inputs | 2 | 2367 outputs for 2366 inputs in rn-nosat.in.bin
        more outputs than vectors | 2 | 2367 outputs for the 2366 inputs of
        """)
    void aRecordingIsReadStrictly(String damage, int exit, String message) throws IOException {
        Path vectors = vectors();
        Path rec = temp.resolve("recording");
        Path pair = rec.resolve("ascend-c/float-fp8_e4m3fn");
        Files.createDirectories(pair);
        byte[] outputs = Files.readAllBytes(vectors.resolve(CASE + ".expected.bin"));
        switch (damage) {
            case "a trailing odd byte" -> {
                Path half = Files.createDirectories(rec.resolve("ascend-c/float-half"));
                Files.write(half.resolve("rn-nosat.out.bin"),
                        append(Files.readAllBytes(vectors.resolve("ascend-c/float-half/rn-nosat.expected.bin")), 1));
            }
            case "a memh value too wide" -> {
                StringBuilder memh = new StringBuilder();
                for (byte b : outputs) {
                    memh.append(String.format("%02X%n", b & 0xFF));
                }
                Files.writeString(pair.resolve("rn-nosat.out.memh"), memh.toString().replaceFirst("\\A..", "1FF"));
            }
            case "an empty folder" -> { }
            case "a misnamed recording" -> Files.write(pair.resolve("rn-nosta.out.bin"), outputs);
            case "the wrong profile folder" -> {
                Files.move(rec.resolve("ascend-c"), rec.resolve("cuda"));
                Files.write(rec.resolve("cuda/float-fp8_e4m3fn/rn-nosat.out.bin"), outputs);
            }
            case "more outputs than vectors" -> Files.write(pair.resolve("rn-nosat.out.bin"), append(outputs, 1));
            case "more outputs than inputs" -> {
                Files.write(pair.resolve("rn-nosat.out.bin"), append(outputs, 1));
                Files.copy(vectors.resolve(CASE + ".in.bin"), pair.resolve("rn-nosat.in.bin"));
            }
            default -> throw new IllegalArgumentException(damage);
        }
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "replay:dir=" + rec, "--vectors", vectors.toString());
        outcome(r, out).expect(exit, message);
    }

    private static byte[] append(byte[] b, int extra) {
        return java.util.Arrays.copyOf(b, b.length + extra);
    }

    // ---- bad arguments -----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        --out names a file             | certify --out {file} --pair float:half                | 2 | exists and is not a folder
        generate --out names a file    | generate --out {file} --pair float:half               | 2 | exists and is not a folder
        --exhaustive of a 16-bit pair  | certify --exhaustive --pair half:float --out {tmp}/o  | 2 | half->float has a 16-bit source
        --only with regex characters   | certify --only float->half/\\E(* --out {tmp}/o         | 5 | selects no case of profile ascend-c
        --timeout-ms 0                 | certify --timeout-ms 0 --out {tmp}/o                  | 2 | --timeout-ms must be a positive number
        --timeout-ms -5                | certify --timeout-ms -5 --out {tmp}/o                 | 2 | --timeout-ms must be a positive number
        --first -3                     | certify --first -3 --out {tmp}/o                      | 2 | --first must be 0 or more
        --format with no layout        | generate --format , --out {tmp}/g                     | 2 | --format names no layout
        a waivers file that is missing | certify --waivers /nonexistent/w.csv --out {tmp}/o    | 2 | --waivers /nonexistent/w.csv: no such file
        a misspelt profile             | certify --profile cudaa --out {tmp}/o                 | 2 | no profile 'cudaa'; profiles: arm ascend-c cuda gfx950 ieee754 llvm ocp-mx opencl p3109 riscv rocm
        merge of a report that is not JSON | report merge {bad} --out {tmp}/m                   | 2 | conformance.json: not a conformance report
        --shard without --exhaustive   | certify --shard 1/2 --out {tmp}/o                     | 2 | --shard splits the 2^32 inputs of --exhaustive
        --jobs without --exhaustive    | certify --jobs 2 --out {tmp}/o                        | 2 | --jobs splits the 2^32 inputs of --exhaustive
        --jobs 0                       | certify --jobs 0 --exhaustive --pair float:half --out {tmp}/o | 2 | --jobs must be 1 or more
        an unknown level               | certify --level extreme --out {tmp}/o                 | 2 | unknown level 'extreme'
        """)
    void aBadArgumentIsOneLineAndExit2(String what, String command, int exit, String message) throws IOException {
        Path file = Files.writeString(temp.resolve("a-file"), "x");
        Path bad = temp.resolve("bad");
        Files.createDirectories(bad);
        Files.writeString(bad.resolve("conformance.json"), "{ not json");
        List<String> args = new ArrayList<>();
        for (String word : command.split(" ")) {
            args.add(word.replace("{file}", file.toString()).replace("{tmp}", temp.toString()).replace("{bad}", bad.toString()));
        }
        outcome(Fixtures.run("", args.toArray(String[]::new)), null).expect(exit, message);
    }

    // ---- the report folder --------------------------------------------------------------------------

    @Test
    void aReportFolderInUseIsRefused() throws IOException {
        Path out = temp.resolve("out");
        Files.createDirectories(out);
        try (FileChannel channel = FileChannel.open(out.resolve(".convcert.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = channel.lock()) {
            outcome(Fixtures.certify(out, "--pair", "float:half"), null)
                    .expect(2, "another convcert run is writing to");
        }
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit(), "free again once the other run ends");
    }

    @Test
    void onlyTheRunsOwnFilesAreReplaced() throws IOException {
        Path out = temp.resolve("out");
        Files.createDirectories(out.resolve("junit"));
        Files.createDirectories(out.resolve("allure-results"));
        Files.writeString(out.resolve("junit/notes.txt"), "mine");
        Files.writeString(out.resolve("allure-results/executor.json"), "mine"); // environment.properties is the run's
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit());
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit());
        assertEquals("mine", Files.readString(out.resolve("junit/notes.txt")));
        assertEquals("mine", Files.readString(out.resolve("allure-results/executor.json")));
        try (Stream<Path> xml = Files.list(out.resolve("junit"))) {
            assertEquals(2, xml.count(), "one JUnit file of the last run, and the user's");
        }
    }
}
