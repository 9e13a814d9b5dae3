package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * convcert certify end to end: every built-in adapter, the example devices (built here with gcc), the
 * robustness of the process adapter, waivers, reports, exit codes.
 */
class CertifyTest {

    @BeforeAll
    static void buildExampleDevices() throws Exception {
        Fixtures.exampleDevice();
    }

    @Test
    void theJdkIsTheDefaultAndPassesWhatItDeclares(@TempDir Path out) throws IOException {
        Fixtures.Run r = Fixtures.certify(out);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        assertEquals("jdk", report.get("adapter").asText());
        assertEquals("PASS", Fixtures.find(report, "float->half/rn-nosat").get("status").asText());
        assertEquals("NOT_APPLICABLE", Fixtures.find(report, "float->bfloat16/rn-nosat").get("status").asText());
        assertTrue(report.get("summary").get("passed").asInt() > 50);
        String xml = Files.readString(out.resolve("junit/TEST-convcert-jdk.xml"));
        assertTrue(xml.contains("<testcase classname=\"ascend-c.float->half\" name=\"rn-nosat\""), xml.substring(0, 400));
        assertTrue(xml.contains("<skipped message=\"not applicable"), "not applicable is skipped, not passed");
        assertTrue(Files.list(out.resolve("allure-results")).findAny().isPresent(), "Allure results written");
        assertTrue(r.out().strip().lines().reduce((a, b) -> b).orElseThrow().matches("PASS: \\d+ cases, [0-9,]+ vectors certified .*"),
                r.out());
    }

    @Test
    void exactNanComparisonShowsWhereJavaDropsTheNanSign(@TempDir Path out) throws IOException {
        Fixtures.Run r = Fixtures.certify(out, "--pair", "float:float", "--decision", "nan-comparison=exact");
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->float/rn-nosat");
        assertEquals("FAIL", c.get("status").asText());
        assertTrue(c.get("kinds").fieldNames().next().startsWith("NaN encoding"), c.get("kinds").toString());
        assertTrue(c.get("firstMismatches").get(0).asText().contains("actual 0x7FC00000"), c.toString());
        assertTrue(c.get("rules").toString().contains("conversions.csv"), "names the deciding rows");
    }

    @Test
    void theExampleDevicesPassTheirCapabilities(@TempDir Path out) throws IOException {
        Fixtures.Run r = Fixtures.certify(out.resolve("process"), "--adapter", "process:cmd=" + Fixtures.dut);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals("PASS", Fixtures.find(Fixtures.report(out.resolve("process")), "float->int32/rz-sat").get("status").asText());
        r = Fixtures.certify(out.resolve("native"), "--adapter", "native:lib=" + Fixtures.library);
        assertEquals(0, r.exit(), r.out() + r.err());
        // 5 capabilities, each certified on every form and CTRL variant of its state
        JsonNode summary = Fixtures.report(out.resolve("native")).get("summary");
        assertEquals(summary.get("cases").asInt() - summary.get("notApplicable").asInt(), summary.get("passed").asInt());
        assertTrue(summary.get("passed").asInt() > 5, summary.toString());
    }

    @Test
    void thePythonDevicePasses(@TempDir Path out) throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import numpy").start();
        assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3 with numpy");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "process:cmd=python3 " + Fixtures.HOME.resolve("suite/devices/example-python/dut.py"));
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode summary = Fixtures.report(out).get("summary");
        assertEquals(summary.get("cases").asInt() - summary.get("notApplicable").asInt(), summary.get("passed").asInt());
        assertTrue(summary.get("passed").asInt() >= 3, summary.toString());
    }

    /** A library exporting convcert_programs_saturation() == 0 runs each state once, as a device saying SATURATION told. */
    @Test
    void aLibraryToldTheStateRunsEachStateOnce(@TempDir Path out) throws Exception {
        Fixtures.exampleDevice();
        Path extra = Files.writeString(out.resolve("told.c"), "int convcert_programs_saturation(void) { return 0; }\n");
        Path told = out.resolve("libtold.so");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-shared", "-fPIC", "-DCONVCERT_LIBRARY", "-I",
                Fixtures.HOME.resolve("suite/native").toString(), "-o", told.toString(), Fixtures.DUT_SOURCE.toString(),
                extra.toString(), "-lm").redirectErrorStream(true).start();
        String log = new String(gcc.getInputStream().readAllBytes());
        assertTrue(gcc.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && gcc.exitValue() == 0, log);
        Map<String, Long> runs = new java.util.HashMap<>();
        for (Path lib : List.of(Fixtures.library, told)) {
            Path report = out.resolve("report-" + lib.getFileName());
            Fixtures.Run r = Fixtures.certify(report, "--pair", "float:half", "--adapter", "native:lib=" + lib);
            assertEquals(0, r.exit(), r.out() + r.err());
            runs.put(lib.getFileName().toString(), Fixtures.passed(Fixtures.report(report), "float->half/rn-nosat"));
        }
        assertEquals(Map.of("libdut.so", 8L, "libtold.so", 1L), runs);
    }

    /** A profile the committed set does not hold certifies its ci set, generated on demand, and says so. */
    @Test
    void aProfileWithoutACommittedSetCertifiesItsCiSet(@TempDir Path out) throws IOException {
        Fixtures.Run r = Fixtures.certify(out, "--profile", "rocm", "--adapter", "reference");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith("convcert: the committed golden set holds no case of profile rocm; certifying its ci set"),
                r.out());
        JsonNode report = Fixtures.report(out);
        assertTrue(report.get("source").asText().endsWith("vectors-ci"), report.get("source").toString());
        assertTrue(report.get("summary").get("passed").asInt() > 0, report.get("summary").toString());
    }

    @ParameterizedTest(name = "fault {0}")
    @CsvSource(delimiter = '|', value = {
        "crash|the process exited with code 134 (killed by signal 6, SIGABRT); its stderr ends:",
        "hang|no answer within 1500 ms",
        "garbage|expected 'OK <count>' or 'ERR <message>', got '\\x01\\x02garbage'",
        "short|a short answer: 'OK ",
        "short-hang|(batch of 3056); when it was closed: a short answer: 'OK 3056', then 6,109 of the 6,112 bytes of its values",
        "long|values for a batch of",
        "error|the process answered: ERR simulated device error",
    })
    void aMisbehavingProcessFailsItsCaseAndTheRunGoesOn(String fault, String message, @TempDir Path out) throws IOException {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "process:cmd=" + Fixtures.dut + " --fault " + fault, "--timeout-ms", "1500",
                "--pair", "float:bfloat16", "--pair", "float:half");
        assertEquals(3, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        JsonNode broken = Fixtures.find(report, "float->bfloat16/rz-nosat");
        assertEquals("ADAPTER_ERROR", broken.get("status").asText());
        assertTrue(broken.get("message").asText().contains(message), broken.get("message").asText());
        assertEquals("PASS", Fixtures.find(report, "float->half/rn-nosat").get("status").asText(), "restarted for the next case");
        assertTrue(Files.readString(out.resolve("conformance.html")).contains("ADAPTER_ERROR"));
        // Allure tells a broken implementation from a wrong one: broken, not failed
        assertEquals("broken", AllureResultsTest.result(out, "float->bfloat16/rz-nosat").get("status").asText());
        assertEquals("passed", AllureResultsTest.result(out, "float->half/rn-nosat").get("status").asText());
    }

    /** A recording of the reference's own outputs for float->fp8_e4m3fn rn nosat, as a board would write it. */
    private static Path record(Path dir, boolean memh) throws IOException {
        Path pair = dir.resolve("ascend-c/float-fp8_e4m3fn");
        Files.createDirectories(pair);
        Path expected = Fixtures.HOME.resolve("vectors/ascend-c/float-fp8_e4m3fn/rn-nosat.expected." + (memh ? "memh" : "bin"));
        return Files.copy(expected, pair.resolve("rn-nosat.out." + (memh ? "memh" : "bin")));
    }

    @Test
    void replayChecksRecordedOutputs(@TempDir Path out) throws IOException {
        Path recording = out.resolve("recording");
        Path bin = record(recording, false);
        Fixtures.Run r = Fixtures.certify(out.resolve("ok"), "--adapter", "replay:dir=" + recording);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(1, Fixtures.report(out.resolve("ok")).get("summary").get("passed").asInt());
        byte[] bytes = Files.readAllBytes(bin);
        bytes[100] ^= 0x01; // one wrong output
        Files.write(bin, bytes);
        r = Fixtures.certify(out.resolve("bad"), "--adapter", "replay:dir=" + recording);
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out.resolve("bad")), "float->fp8_e4m3fn/rn-nosat");
        assertEquals(1, c.get("mismatches").asInt());
        Path memhRecording = out.resolve("memh");
        record(memhRecording, true);
        assertEquals(0, Fixtures.certify(out.resolve("memh-report"), "--adapter", "replay:dir=" + memhRecording).exit());
    }

    @Test
    void waiversAcceptKnownDeviationsUntilTheyExpire(@TempDir Path out) throws IOException {
        Path recording = out.resolve("recording");
        Path bin = record(recording, false);
        byte[] bytes = Files.readAllBytes(bin);
        bytes[7] ^= 0x01;
        Files.write(bin, bytes);
        Path live = out.resolve("live.csv");
        Files.writeString(live, "case,reason,expires\nfloat->fp8_e4m3fn/*,board bug 1234,2999-12-31\n");
        Fixtures.Run r = Fixtures.certify(out.resolve("r1"), "--adapter", "replay:dir=" + recording, "--waivers", live.toString());
        assertEquals(5, r.exit(), r.out()); // the only applicable case is waived: nothing is certified
        assertTrue(r.out().contains("NOTHING CERTIFIED: every applicable case was waived; 1 waived cases (1 mismatches accepted)"),
                r.out());
        JsonNode waived = Fixtures.find(Fixtures.report(out.resolve("r1")), "float->fp8_e4m3fn/rn-nosat");
        assertEquals("WAIVED", waived.get("status").asText());
        assertTrue(waived.get("waiver").asText().contains("board bug 1234 (" ), waived.toString());
        Path expired = out.resolve("expired.csv");
        Files.writeString(expired, "case,reason,expires\nfloat->fp8_e4m3fn/rn-nosat,board bug 1234,2020-01-01\n");
        r = Fixtures.certify(out.resolve("r2"), "--adapter", "replay:dir=" + recording, "--waivers", expired.toString());
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("waiver expired on 2020-01-01: board bug 1234"), r.out());
        assertTrue(Fixtures.find(Fixtures.report(out.resolve("r2")), "float->fp8_e4m3fn/rn-nosat").get("message").asText()
                .startsWith("waiver expired on 2020-01-01: board bug 1234 ("));
        assertTrue(Files.readString(out.resolve("r2/conformance.html")).contains("waiver expired on 2020-01-01"));
        assertTrue(Fixtures.junitXml(out.resolve("r2")).contains("waiver expired on 2020-01-01"));
        Path bad = out.resolve("bad.csv");
        Files.writeString(bad, "case,reason,expires\nx,y,tomorrow\n");
        r = Fixtures.certify(out.resolve("r3"), "--adapter", "replay:dir=" + recording, "--waivers", bad.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("bad.csv:2:3: expires: expected an ISO date"), r.err());
    }

    @Test
    void adapterSuppliedTextIsEscapedInHtml(@TempDir Path out) throws IOException {
        Path script = out.resolve("evil.py");
        Files.writeString(script, """
                import sys
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float half rn nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    if line.startswith(b"QUIT"): break
                    n = int(line.split()[-1]); sys.stdin.buffer.read(4 * n)
                    sys.stdout.write("ERR <script>alert('x')</script>\\n"); sys.stdout.flush()
                """);
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "process:cmd=python3 " + script, "--pair", "float:half");
        assertEquals(3, r.exit(), r.out() + r.err());
        String html = Files.readString(out.resolve("conformance.html"));
        assertFalse(html.contains("<script>alert"), "raw adapter text in the HTML");
        assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    }

    @Test
    void exhaustiveShardsCoverTheirRangeAndMergeOnlyWhenComplete(@TempDir Path out) throws IOException {
        for (String shard : List.of("1023/1024", "1024/1024")) {
            Fixtures.Run r = Fixtures.certify(out.resolve(shard.replace('/', '-')), "--adapter", "reference", "--exhaustive",
                    "--pair", "float:fp8_e5m2", "--shard", shard);
            assertEquals(0, r.exit(), r.out() + r.err());
        }
        JsonNode one = Fixtures.find(Fixtures.report(out.resolve("1024-1024")), "float->fp8_e5m2/rn-sat");
        assertEquals(1L << 22, one.get("vectors").asLong());
        assertEquals("1024/1024", Fixtures.report(out.resolve("1024-1024")).get("shard").asText());
        Fixtures.Run merged = Fixtures.run("", "report", "merge", out.resolve("1023-1024").toString(),
                out.resolve("1024-1024").toString(), "--out", out.resolve("merged").toString());
        assertEquals(2, merged.exit(), merged.err());
        assertTrue(merged.err().contains("1022 of 1024 shards missing: 1/1024, 2/1024"), merged.err());
    }

    /**
     * --jobs 2 splits an exhaustive case over two processes and reports exactly what one process does:
     * same vectors, mismatches, first mismatches (the earliest inputs), kinds, binades and diagnosis.
     * The example device with an unknown --fault claims float->bfloat16 rz and truncates, wrong for
     * NaN: the last 1/256 of the inputs holds 2^23 negative NaNs.
     */
    @Test
    void jobsSplitAnExhaustiveCaseAndReportWhatOneAdapterWould(@TempDir Path out) throws Exception {
        String device = "process:cmd=" + Fixtures.exampleDevice() + " --fault truncate";
        Map<String, JsonNode> cases = new java.util.HashMap<>();
        for (String jobs : List.of("1", "2")) {
            Fixtures.Run r = Fixtures.certify(out.resolve(jobs), "--adapter", device, "--exhaustive", "--pair", "float:bfloat16",
                    "--only", "float->bfloat16/rz-nosat", "--shard", "256/256", "--jobs", jobs);
            assertEquals(1, r.exit(), r.out() + r.err());
            cases.put(jobs, Fixtures.untimed(Fixtures.find(Fixtures.report(out.resolve(jobs)), "float->bfloat16/rz-nosat")));
        }
        assertEquals(1L << 24, cases.get("1").get("vectors").asLong());
        // Truncation turns a NaN into -infinity where its payload lies in the 16 bits dropped:
        // 0xFF800001..0xFF80FFFF, all in one cell of the input map (sign -, exponent field 0xff, fraction .000).
        assertEquals(0xFFFF, cases.get("1").get("mismatches").asLong(), cases.get("1").toString());
        JsonNode map = cases.get("1").get("inputMap");
        assertEquals(8, map.get("exponentBits").asInt());
        assertEquals(3, map.get("fractionBits").asInt());
        assertEquals("{\"-ff.000\":65535}", map.get("cells").toString());
        String html = Files.readString(out.resolve("1/conformance.html"));
        assertTrue(html.contains("<title>- exponent field 0xff (infinity and NaN), fraction .000...: 65,535 of 1,048,576 "
                + "inputs differ</title>"), "the HTML pictures the map");
        assertFalse(html.contains("per input binade"), "the map replaces the sampled binade chart");
        assertEquals(cases.get("1"), cases.get("2"));
        assertTrue(Fixtures.report(out.resolve("2")).get("notes").toString().contains("split over 2 instances of the adapter"),
                Fixtures.report(out.resolve("2")).get("notes").toString());
        // a part that cannot finish names itself, and the case is an adapter failure
        Fixtures.Run crash = Fixtures.certify(out.resolve("crash"), "--adapter", "process:cmd=" + Fixtures.exampleDevice() + " --fault crash",
                "--exhaustive", "--pair", "float:bfloat16", "--only", "float->bfloat16/rz-nosat", "--shard", "256/256",
                "--jobs", "2");
        assertEquals(3, crash.exit(), crash.out() + crash.err());
        JsonNode broken = Fixtures.find(Fixtures.report(out.resolve("crash")), "float->bfloat16/rz-nosat");
        assertEquals("ADAPTER_ERROR", broken.get("status").asText());
        assertTrue(broken.get("message").asText().startsWith("part 1 of 2 (--jobs): ")
                && broken.get("message").asText().contains("exited with code 134"), broken.toString());
    }

    @Test
    void usageErrorsExitWith2(@TempDir Path out) {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "gpu");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown adapter 'gpu'; adapters: "), r.err());
        assertEquals(2, Fixtures.certify(out, "--exhaustive").exit());
        assertEquals(2, Fixtures.certify(out, "--exhaustive", "--pair", "half:float").exit());
        r = Fixtures.certify(out, "--shard", "1/2", "--pair", "float:half");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--shard splits the 2^32 inputs of --exhaustive"), r.err());
        r = Fixtures.certify(out, "--shard", "3/2", "--exhaustive", "--pair", "float:half");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("bad --shard '3/2'"), r.err());
        r = Fixtures.certify(out, "--adapter", "process");
        assertTrue(r.err().contains("needs option cmd=..."), r.err());
        assertEquals(2, r.exit());
    }
}
