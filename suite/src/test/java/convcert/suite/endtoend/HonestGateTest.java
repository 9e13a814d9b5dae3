package convcert.suite.endtoend;

import static convcert.suite.endtoend.Fixtures.certify;
import static convcert.suite.endtoend.Fixtures.find;
import static convcert.suite.endtoend.Fixtures.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The verdict means what it says: a run that certified nothing is never a pass, shard merges are
 * complete and unique, waivers and recomputed expectations are visible, a failing run says what
 * failed, and every report says where it came from.
 */
class HonestGateTest {

    @BeforeAll
    static void buildExampleDevices() throws Exception {
        Fixtures.exampleDevice();
    }

    /** A Python device declaring the given CAP lines and answering float->half rn with numpy-free code. */
    static Path device(Path dir, String caps, String body) throws IOException {
        Path script = dir.resolve("device.py");
        Files.writeString(script, """
                import struct, sys
                sys.stdin.buffer.readline()
                sys.stdout.write(%s + "READY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1]); data = sys.stdin.buffer.read(4 * n)
                %s
                """.formatted(caps, body.indent(4)));
        return script;
    }

    /** Answers every batch with zeros: applicable, and wrong for most inputs. */
    static final String ZEROS = """
            sys.stdout.buffer.write(b"OK %d\\n" % n + bytes(2 * n)); sys.stdout.flush()
            """;

    @Test
    void capabilitiesNameTypesByAlias(@TempDir Path out) throws IOException {
        Path dev = device(out, "\"CAP float fp16 rn nosat\\n\"", ZEROS);
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "process:cmd=python3 " + dev, "--pair", "float:half",
                "--only", "float->half/rn-nosat");
        assertEquals(1, report(out.resolve("r")).get("summary").get("cases").asInt(), r.out());
        assertFalse(find(report(out.resolve("r")), "float->half/rn-nosat").get("status").asText().equals("NOT_APPLICABLE"),
                "the alias fp16 names half: " + r.out());
        assertTrue(report(out.resolve("r")).get("declared").toString().contains("float half rn nosat"));
    }

    @Test
    void capabilitiesThatMatchNothingCertifyNothing(@TempDir Path out) throws IOException {
        Path dev = device(out, "\"CAP float fp16x rn nosat\\nCAP float half rh nosat\\n\"", ZEROS);
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "process:cmd=python3 " + dev, "--pair", "float:half");
        assertEquals(5, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("warning: 2 of 2 declared capabilities match no case of profile ascend-c"), r.out());
        assertTrue(r.out().contains("  float fp16x rn nosat\n"), r.out());
        String last = r.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(last.startsWith("NOTHING CERTIFIED: no selected case applies to the adapter (0 of 52 planned cases "
                + "applicable to the adapter, which declares 2 capabilities, 2 matching no case)"), last);
        assertTrue(report(out.resolve("r")).get("unmatched").toString().contains("float half rh nosat"));
        assertTrue(Files.readString(out.resolve("r/conformance.html")).contains("NOTHING CERTIFIED"));
    }

    @Test
    void aSelectionOfNothingCertifiesNothing(@TempDir Path out) {
        Fixtures.Run r = certify(out, "--only", "float->nothing/*");
        assertEquals(5, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("nothing selected: --only 'float->nothing/*' selects no case of profile ascend-c"), r.out());
        assertTrue(r.out().strip().endsWith("NOTHING CERTIFIED: no case was selected"), r.out());
    }

    /** A merged report keeps what each part's reader had to know, not just the first part's notes. */
    @Test
    void mergeKeepsEveryReportsNotes(@TempDir Path out) throws IOException {
        assertEquals(0, certify(out.resolve("a"), "--pair", "float:half").exit());
        assertEquals(0, certify(out.resolve("b"), "--pair", "half:float").exit());
        // b as convcert would have written it had its run had a note of its own (a hand edit is refused)
        var b = convcert.suite.report.JsonReport.read(out.resolve("b/conformance.json"));
        List<String> notes = new java.util.ArrayList<>(b.notes());
        notes.add("a note only the second report has");
        convcert.suite.report.JsonReport.write(new convcert.suite.model.ConformanceReport(b.tool(), b.provenance(),
                b.adapter(), b.profile(), b.tables(), b.decisions(), b.documents(), b.source(), b.shard(), b.partial(), b.declared(),
                b.unmatched(), notes, b.summary(), b.cases()), out.resolve("b"));
        Fixtures.Run merged = merge(out, "a", "b");
        assertEquals(0, merged.exit(), merged.out() + merged.err());
        assertTrue(report(out.resolve("merged")).get("notes").toString().contains("a note only the second report has"),
                report(out.resolve("merged")).get("notes").toString());
    }

    @Test
    void mergeRefusesRepeatedMissingAndMixedShards(@TempDir Path out) throws IOException {
        Fixtures.Run shard = certify(out.resolve("s"), "--adapter", "reference", "--exhaustive", "--pair", "float:fp8_e5m2",
                "--only", "float->fp8_e5m2/rn-nosat", "--shard", "1024/1024");
        assertEquals(0, shard.exit(), shard.out() + shard.err());
        Fixtures.Run twice = merge(out, "s", "s");
        assertEquals(2, twice.exit());
        assertTrue(twice.err().contains("shard 1024/1024 is already merged from"), twice.err());
        Fixtures.Run alone = merge(out, "s");
        assertEquals(2, alone.exit());
        assertTrue(alone.err().contains("1023 of 1024 shards missing"), alone.err());
        assertEquals(0, certify(out.resolve("ci"), "--adapter", "reference", "--pair", "float:fp8_e5m2").exit());
        Fixtures.Run mixed = merge(out, "s", "ci");
        assertEquals(2, mixed.exit());
        assertTrue(mixed.err().contains("cannot merge a shard of an exhaustive run with a whole run"), mixed.err());
        assertEquals(0, certify(out.resolve("jdk"), "--pair", "float:half").exit());
        Fixtures.Run other = merge(out, "ci", "jdk");
        assertEquals(2, other.exit());
        assertTrue(other.err().contains("implementation differs"), other.err());
        Fixtures.Run same = merge(out, "ci", "ci");
        assertEquals(2, same.exit());
        assertTrue(same.err().contains("case float->fp8_e5m2/rn-nosat is also in"), same.err());
        Files.writeString(out.resolve("ci/conformance.json"), "{ not json");
        Fixtures.Run broken = merge(out, "ci");
        assertEquals(2, broken.exit());
        assertTrue(broken.err().contains("conformance.json: not a conformance report"), broken.err());
    }

    private static Fixtures.Run merge(Path out, String... folders) {
        String[] args = new String[folders.length + 4];
        args[0] = "report";
        args[1] = "merge";
        for (int i = 0; i < folders.length; i++) {
            args[2 + i] = out.resolve(folders[i]).toString();
        }
        args[args.length - 2] = "--out";
        args[args.length - 1] = out.resolve("merged").toString();
        return Fixtures.run("", args);
    }

    @Test
    void disjointRunsMerge(@TempDir Path out) throws IOException {
        assertEquals(0, certify(out.resolve("a"), "--adapter", "reference", "--pair", "float:fp8_e5m2").exit());
        assertEquals(0, certify(out.resolve("b"), "--adapter", "reference", "--pair", "float:half").exit());
        Fixtures.Run merged = merge(out, "a", "b");
        assertEquals(0, merged.exit(), merged.err());
        JsonNode r = report(out.resolve("merged"));
        assertEquals(report(out.resolve("a")).get("summary").get("cases").asInt()
                + report(out.resolve("b")).get("summary").get("cases").asInt(), r.get("summary").get("cases").asInt());
    }

    @Test
    void aWaiverThatMatchesNoCaseIsAnError(@TempDir Path out) throws IOException {
        Path waivers = out.resolve("w.csv");
        Files.writeString(waivers, "case,reason,expires\nfloat->half/rn-nosat,ok,2999-01-01\nflaot->half/*,typo,2999-01-01\n");
        Fixtures.Run r = certify(out.resolve("r"), "--waivers", waivers.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("w.csv:3") && r.err().contains("'flaot->half/*' matches no case"), r.err());
    }

    @Test
    void aWaivedCaseBesideAPassingOneIsVisibleEverywhere(@TempDir Path out) throws IOException {
        Path dir = out.resolve("recording/ascend-c/float-fp8_e4m3fn");
        Files.createDirectories(dir);
        Path vectors = Fixtures.HOME.resolve("vectors/ascend-c/float-fp8_e4m3fn");
        Files.copy(vectors.resolve("rn-sat-keepnan.expected.bin"), dir.resolve("rn-sat-keepnan.out.bin"));
        byte[] bytes = Files.readAllBytes(vectors.resolve("rn-nosat.expected.bin"));
        bytes[7] ^= 0x01;
        Files.write(dir.resolve("rn-nosat.out.bin"), bytes);
        Path waivers = out.resolve("w.csv");
        Files.writeString(waivers, "case,reason,expires\nfloat->fp8_e4m3fn/rn-nosat,board bug 77,2999-01-01\n");
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "replay:dir=" + out.resolve("recording"), "--waivers",
                waivers.toString());
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().strip().lines().reduce((a, b) -> b).orElseThrow()
                .startsWith("PASS with 1 waived cases (1 mismatches accepted): 1 cases"), r.out());
        assertTrue(r.out().contains("WAIVED float->fp8_e4m3fn/rn-nosat"), r.out());
        JsonNode c = find(report(out.resolve("r")), "float->fp8_e4m3fn/rn-nosat");
        assertTrue(c.get("waiver").asText().startsWith("board bug 77 ("), c.toString());
        assertTrue(Files.readString(out.resolve("r/conformance.html")).contains("board bug 77"));
        assertTrue(Fixtures.junitXml(out.resolve("r")).contains("waived: 1 mismatches waived until 2999-01-01: board bug 77"));
    }

    @Test
    void decisionsProduceTheExpectedValuesTheyClaim(@TempDir Path out) throws IOException {
        // The committed vectors follow directed-overflow=largest-finite; under the other reading the
        // reference must be compared with the other reading's results, not the stored ones.
        Fixtures.Run r = certify(out, "--adapter", "reference", "--pair", "float:half", "--decision",
                "directed-overflow=infinity");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("note: expected values recomputed by the reference: the vectors were generated with "
                + "decisions [directed-overflow=largest-finite], this run uses [directed-overflow=infinity]"), r.out());
        JsonNode report = report(out);
        assertEquals("infinity", report.get("decisions").get("directed-overflow").asText());
        assertTrue(report.get("notes").get(0).asText().contains("recomputed"));
    }

    /** The example C device's float:half and float:int32 where the profile has them (rocm, riscv, ieee754: float:half alone). */
    @ParameterizedTest(name = "profile {0}")
    @org.junit.jupiter.params.provider.CsvSource({"ascend-c, float:int32, 2", "cuda, float:int32, 2",
        "opencl, float:int32, 2", "rocm, float:half, 1", "riscv, float:half, 1", "ieee754, float:half, 1"})
    void theExampleDevicesAndARecordingCertifyUnderEveryProfile(String profile, String secondPair, int passes,
                                                               @TempDir Path out) throws Exception {
        Fixtures.Run r = certify(out.resolve("c"), "--profile", profile, "--level", "quick", "--pair", "float:half",
                "--pair", secondPair, "--adapter", "process:cmd=" + Fixtures.exampleDevice());
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode c = report(out.resolve("c"));
        assertEquals(profile, c.get("profile").asText());
        assertTrue(c.get("summary").get("passed").asInt() >= passes, c.get("summary").toString());
        // The same device as a shared library, and a recording of the vectors' own results, in this profile.
        Path vectors = out.resolve("c/vectors-quick");
        r = certify(out.resolve("native"), "--profile", profile, "--vectors", vectors.toString(), "--pair", "float:half",
                "--adapter", "native:lib=" + Fixtures.library);
        assertEquals(0, r.exit(), r.out() + r.err());
        Path recording = Files.createDirectories(out.resolve("rec").resolve(profile).resolve("float-half"));
        Files.copy(vectors.resolve(profile + "/float-half/rn-nosat.expected.bin"), recording.resolve("rn-nosat.out.bin"));
        r = certify(out.resolve("replay"), "--profile", profile, "--vectors", vectors.toString(), "--adapter",
                "replay:dir=" + out.resolve("rec"));
        assertEquals(0, r.exit(), r.out() + r.err());
        // A Java adapter built against the SPI alone, and an exhaustive range split over two device processes.
        Path jar = AdapterPathTest.exampleAdapterJar(AdapterPathTest.spiOnly(), out.resolve("java"));
        r = certify(out.resolve("java-run"), "--profile", profile, "--vectors", vectors.toString(), "--pair", "float:half",
                "--adapter-path", jar.toString(), "--adapter", "example-half");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(report(out.resolve("java-run")).get("summary").get("passed").asInt() >= 1, r.out());
        r = certify(out.resolve("jobs"), "--profile", profile, "--exhaustive", "--pair", "float:half", "--only",
                "float->half/rn-nosat", "--shard", "255/256", "--jobs", "2", "--adapter",
                "process:cmd=" + Fixtures.exampleDevice());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(1L << 24, find(report(out.resolve("jobs")), "float->half/rn-nosat").get("vectors").asLong());
        Process probe = new ProcessBuilder("python3", "-c", "import numpy").start();
        assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3 with numpy");
        r = certify(out.resolve("py"), "--profile", profile, "--level", "quick", "--pair", "float:half",
                "--adapter", "process:cmd=python3 " + Fixtures.HOME.resolve("suite/devices/example-python/dut.py"));
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(report(out.resolve("py")).get("summary").get("passed").asInt() >= 1, r.out());
    }

    @Test
    void aCrashingDeviceShowsTheEndOfItsTraceback(@TempDir Path out) throws IOException {
        Path dev = device(out, "\"CAP float half rn nosat\\n\"", """
                sys.stderr.write("noise line\\n" * 400)
                def convert(): return 1 / 0
                convert()""");
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "process:cmd=python3 " + dev, "--pair", "float:half",
                "--only", "float->half/rn-nosat");
        assertEquals(3, r.exit(), r.out());
        String message = find(report(out.resolve("r")), "float->half/rn-nosat").get("message").asText();
        assertTrue(message.contains("\n  | ZeroDivisionError: division by zero"), message);
        assertTrue(message.contains("\n  | Traceback (most recent call last):"), message);
        assertFalse(message.contains("\\x0a"), message);
        assertFalse(r.out().contains("0 of 0 vectors differ"), r.out());
        assertTrue(r.out().contains("ADAPTER_ERROR float->half/rn-nosat"), r.out());
    }

    @Test
    void aFailingRunTellsTheLogWhatFailed(@TempDir Path out) throws IOException {
        Path dir = out.resolve("recording/ascend-c/float-fp8_e4m3fn");
        Files.createDirectories(dir);
        byte[] bytes = Files.readAllBytes(Fixtures.HOME.resolve("vectors/ascend-c/float-fp8_e4m3fn/rn-nosat.expected.bin"));
        bytes[3] ^= 0x01;
        Files.write(dir.resolve("rn-nosat.out.bin"), bytes);
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "replay:dir=" + out.resolve("recording"));
        assertEquals(1, r.exit());
        assertTrue(r.out().contains("FAIL float->fp8_e4m3fn/rn-nosat [form nosat, CTRL "), r.out());
        assertTrue(r.out().contains(": 1 of "), r.out());
        assertTrue(r.out().contains("    first: input 0x"), r.out());
        assertTrue(r.out().contains("reports: "), r.out());
        assertTrue(r.out().strip().lines().reduce((a, b) -> b).orElseThrow().startsWith("FAIL: 1 cases with mismatches"));
    }

    @Test
    void closingARunTwiceClosesTheAdapterOnce() {
        int[] closed = {0};
        convcert.spi.ConverterAdapter adapter = new convcert.spi.ConverterAdapter() {
            @Override
            public java.util.List<convcert.spi.Capability> capabilities() {
                return java.util.List.of();
            }

            @Override
            public void convert(convcert.spi.CaseKey c, long[] in, long[] out, int n) {
            }

            @Override
            public void close() {
                closed[0]++;
            }
        };
        var reference = convcert.reference.Reference.of(convcert.spec.SpecTables.load(Fixtures.HOME.resolve("spec-tables/ascend-c")));
        var run = new convcert.suite.runner.SuiteRun(convcert.suite.runner.RunConfig.of(reference, "test", adapter)
                .limits(1000, 10).build());
        run.close();
        run.close(); // the shutdown hook's close after the run's own
        assertEquals(1, closed[0]);
    }

    @Test
    void reportsCarryProvenance(@TempDir Path out) throws Exception {
        Fixtures.Run r = certify(out, "--adapter", "process:cmd=" + Fixtures.exampleDevice(), "--pair", "float:half");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode p = report(out).get("provenance");
        assertTrue(p.get("date").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), p.toString());
        assertEquals("0.5.0", p.get("convcert").asText());
        assertTrue(p.get("jdk").asText().contains(System.getProperty("java.runtime.version")));
        assertFalse(p.get("os").asText().isBlank());
        assertTrue(p.get("implementation").asText().matches("command '.*dut' \\(.*dut sha256 [0-9a-f]{64}\\)"), p.toString());
        assertTrue(p.get("vectors").asText().matches("manifest.json sha256 [0-9a-f]{64}"), p.toString());
        assertEquals(Path.of("").toAbsolutePath().relativize(Fixtures.HOME.resolve("vectors").toAbsolutePath().normalize())
                .toString(), report(out).get("source").asText(), "relative to the working directory");
        String digest = p.get("implementation").asText().replaceAll(".*sha256 ([0-9a-f]{64}).*", "$1");
        assertTrue(Files.readString(out.resolve("conformance.html")).contains(digest), "the HTML names the implementation");
        Fixtures.Run v = Fixtures.run("", "--version");
        assertTrue(v.out().startsWith("convcert 0.5.0"), v.out());
        assertTrue(v.out().contains("JDK "), v.out());
    }

    /**
     * A defect every variant of a state shows (form x CTRL) is one finding: listed once on the console and
     * in the HTML with its variants, and the matrix counts its vectors once, not once per variant.
     */
    @Test
    void oneDefectInEveryVariantIsOneFinding(@TempDir Path out) throws Exception {
        Fixtures.Run r = certify(out, "--adapter", "process:cmd=" + Fixtures.exampleDevice() + " --fault truncate",
                "--pair", "float:bfloat16");
        assertEquals(1, r.exit(), r.out());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("FAIL float->bfloat16/rz-nosat")).count(), r.out());
        assertTrue(r.out().contains("    alike in 4 variants: form nosat, CTRL"), r.out());
        String html = Files.readString(out.resolve("conformance.html"));
        assertEquals(1, html.split("<details class=\"finding\"", -1).length - 1, "one section");
        assertTrue(html.contains("nosat &times;4 2/3056"), "the chip counts the state's vectors once");
        assertEquals(1, html.split("<tr class=\"finding\"", -1).length - 1, "one row in the findings table");
        assertTrue(html.contains("<tr class=\"finding\" data-pair=\"float-&gt;bfloat16\""), "the row filters by pair");
        assertTrue(html.contains("<option value=\"float-&gt;bfloat16\">"), "the pair filter offers the pair");
    }

    /** A waiver naming a state covers all its variants; one naming a variant, that variant alone. */
    @Test
    void aWaiverNamingAStateCoversItsVariants(@TempDir Path out) throws Exception {
        String device = "process:cmd=" + Fixtures.exampleDevice() + " --fault truncate";
        Path state = Files.writeString(out.resolve("state.csv"), "case,reason,expires\nfloat->bfloat16/rz-nosat,known,2999-01-01\n");
        Fixtures.Run r = certify(out.resolve("a"), "--adapter", device, "--pair", "float:bfloat16", "--waivers", state.toString());
        assertEquals(0, r.exit(), r.out());
        assertEquals(4, report(out.resolve("a")).get("summary").get("waived").asInt());
        Path one = Files.writeString(out.resolve("one.csv"),
                "case,reason,expires\n\"float->bfloat16/rz-nosat [nosat 60=0,48=0]\",known,2999-01-01\n");
        r = certify(out.resolve("b"), "--adapter", device, "--pair", "float:bfloat16", "--waivers", one.toString());
        assertEquals(1, r.exit(), r.out());
        assertEquals(1, report(out.resolve("b")).get("summary").get("waived").asInt());
    }

    @Test
    void anExpiredWaiverIsNamedOnTheLastLine(@TempDir Path out) throws Exception {
        Path old = Files.writeString(out.resolve("old.csv"), "case,reason,expires\nfloat->bfloat16/rz-nosat,known,2001-01-01\n");
        Fixtures.Run r = certify(out.resolve("r"), "--adapter", "process:cmd=" + Fixtures.exampleDevice() + " --fault truncate",
                "--pair", "float:bfloat16", "--waivers", old.toString());
        assertEquals(1, r.exit(), r.out());
        String last = r.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(last.contains("the waiver of float->bfloat16/rz-nosat has expired"), last);
    }
}
