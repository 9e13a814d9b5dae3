package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exception-flags lane of a profile with flags.csv (riscv): golden files carry it, adapters that
 * report flags are certified on them, a right result with wrong flags fails as its own kind, adapters
 * without flags keep working (results certified, a note says the flags were not), and convert --flags.
 */
class FlagsLaneTest {

    static final String NOT_CERTIFIED = "its results were certified and its flags were not";

    @Test
    void aRecordingWithFlagsIsCertifiedOnThemAndAWrongFlagFails(@TempDir Path out) throws IOException {
        Path vectors = out.resolve("v");
        Fixtures.Run g = Fixtures.run("", "generate", "--profile", "riscv", "--level", "quick", "--pair", "float:half",
                "--format", "bin", "--out", vectors.toString());
        assertEquals(0, g.exit(), g.err());
        Path cases = vectors.resolve("riscv/float-half");
        Path recording = Files.createDirectories(out.resolve("rec/riscv/float-half"));
        for (String c : new String[] {"rn-nosat", "rz-nosat"}) {
            Files.copy(cases.resolve(c + ".expected.bin"), recording.resolve(c + ".out.bin"));
            Files.copy(cases.resolve(c + ".flags.bin"), recording.resolve(c + ".flags.bin"));
        }
        Fixtures.Run r = Fixtures.certify(out.resolve("ok"), "--profile", "riscv", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + out.resolve("rec"));
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains(NOT_CERTIFIED), r.out());

        byte[] flags = Files.readAllBytes(recording.resolve("rn-nosat.flags.bin"));
        int changed = -1;
        for (int i = 0; i < flags.length && changed < 0; i++) {
            if (flags[i] == 0x01) { // an inexact result: claim it also underflowed
                flags[i] = 0x03;
                changed = i;
            }
        }
        Files.write(recording.resolve("rn-nosat.flags.bin"), flags);
        r = Fixtures.certify(out.resolve("bad"), "--profile", "riscv", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + out.resolve("rec"));
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out.resolve("bad")), "float->half/rn-nosat");
        assertEquals(1, c.get("mismatches").asInt(), c.toString());
        assertEquals(1, c.get("kinds").get("exception flags").asInt(), c.toString());
        assertTrue(c.get("firstMismatches").get(0).asText().contains(" right, flags expected 01 (inexact), actual 03 "
                + "(inexact underflow) [exception flags]"), c.toString());
        assertFalse(c.path("diagnosisData").path("complete").asBoolean(), "no reading explains one corrupt byte: " + c);

        Files.delete(recording.resolve("rz-nosat.flags.bin"));
        r = Fixtures.certify(out.resolve("missing"), "--profile", "riscv", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + out.resolve("rec"));
        assertEquals("ADAPTER_ERROR", Fixtures.find(Fixtures.report(out.resolve("missing")), "float->half/rz-nosat")
                .get("status").asText(), r.out());
    }

    /** Flags made under another reading of a flag decision fail, and the diagnosis names that reading. */
    @Test
    void flagsOfAnotherReadingAreDiagnosedAsThatReading(@TempDir Path out) throws IOException {
        Path vectors = out.resolve("v");
        Fixtures.Run g = Fixtures.run("", "generate", "--profile", "riscv", "--level", "ci", "--pair", "float:half",
                "--format", "bin", "--decision", "tininess=before-rounding", "--out", vectors.toString());
        assertEquals(0, g.exit(), g.err());
        Path recording = Files.createDirectories(out.resolve("rec/riscv/float-half"));
        Files.copy(vectors.resolve("riscv/float-half/rn-nosat.expected.bin"), recording.resolve("rn-nosat.out.bin"));
        Files.copy(vectors.resolve("riscv/float-half/rn-nosat.in.bin"), recording.resolve("rn-nosat.in.bin"));
        Files.copy(vectors.resolve("riscv/float-half/rn-nosat.flags.bin"), recording.resolve("rn-nosat.flags.bin"));
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "riscv", "--level", "ci", "--pair",
                "float:half", "--adapter", "replay:dir=" + out.resolve("rec"));
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out.resolve("r")), "float->half/rn-nosat");
        assertEquals(c.get("mismatches").asInt(), c.get("kinds").get("exception flags").asInt(), c.toString());
        JsonNode d = c.get("diagnosisData");
        assertTrue(d.get("complete").asBoolean(), d.toString());
        // the reading is the catalogue's fault tininess-before-rounding, and named so
        assertEquals("tininess-before-rounding", d.get("faults").get(0).get("fault").asText(), d.toString());
    }

    @Test
    void anAdapterWithoutFlagsHasItsResultsCertifiedAndSaysSo(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--profile", "riscv", "--level", "quick", "--pair", "float:half",
                "--adapter", "process:cmd=" + Fixtures.exampleDevice());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains(NOT_CERTIFIED), r.out());
        r = Fixtures.certify(out.resolve("ref"), "--profile", "riscv", "--level", "quick", "--pair", "float:half",
                "--adapter", "reference");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains(NOT_CERTIFIED), "the reference reports flags: " + r.out());
    }

    /** x86 F16C as a process device with FLAGS: its results agree; lying about flags is caught. */
    @Test
    void theF16cDeviceReportsFlagsAndALieIsCaught(@TempDir Path out) throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/cpuinfo")).contains(" f16c"), "a CPU with F16C");
        Path dut = out.resolve("f16c_dut");
        Process cc = new ProcessBuilder("cc", "-O2", "-mf16c", "-o", dut.toString(),
                Fixtures.HOME.resolve("suite/devices/x86-f16c/f16c_dut.c").toString()).inheritIO().start();
        assumeTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "a C compiler");
        Fixtures.Run honest = Fixtures.certify(out.resolve("honest"), "--profile", "riscv", "--level", "quick", "--pair",
                "float:half", "--adapter", "process:cmd=" + dut);
        assertFalse(honest.out().contains(NOT_CERTIFIED), honest.out());
        long honestFlags = 0;
        for (JsonNode c : Fixtures.report(out.resolve("honest")).get("cases")) {
            c.path("kinds").fieldNames().forEachRemaining(k -> assertEquals("exception flags", k, "values agree: " + c));
            honestFlags += c.path("kinds").path("exception flags").asLong();
        }
        Fixtures.Run lying = Fixtures.certify(out.resolve("lying"), "--profile", "riscv", "--level", "quick", "--pair",
                "float:half", "--adapter", "process:cmd=env CONVCERT_F16C_MUTATION=no-flags " + dut);
        assertEquals(1, lying.exit(), lying.out());
        long lyingFlags = 0;
        for (JsonNode c : Fixtures.report(out.resolve("lying")).get("cases")) {
            lyingFlags += c.path("kinds").path("exception flags").asLong();
        }
        assertTrue(lyingFlags > honestFlags + 100, honestFlags + " honest, " + lyingFlags + " with no flags");
        // TestFloat's side (docs/peers/testfloat.sh --device): its case lines in, "INPUT RESULT FLAGS" out
        assertEquals("477FF000 7C00 05\n3F800000 3C00 00\n", testfloat(dut, "rn", "477FF000 7BFF 01\n3F800000 3C00 00\n"));
        assertEquals("3FC00000 3E00 00\n", testfloat(dut, "rz", "3FC00000\n"));
        assertEquals("", testfloat(dut, "rna", "477FF000\n"), "a mode it does not offer: nothing answered");
    }

    private static String testfloat(Path dut, String mode, String cases) throws Exception {
        Process p = new ProcessBuilder(dut.toString(), "--testfloat", mode).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (var in = p.getOutputStream()) {
            in.write(cases.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        } catch (java.io.IOException refused) { // a device that refuses the mode may exit before reading its cases
            assertEquals("rna", mode, refused.toString());
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(mode.equals("rna") ? 2 : 0, p.exitValue(), mode);
        return out;
    }

    @Test
    void convertPrintsFlagsWhereTheProfileHasThem() {
        Fixtures.Run r = Fixtures.run("", "convert", "--profile", "riscv", "--from", "float", "--to", "half", "--rounding",
                "rn", "--flags", "0x477FF000", "0x3F800000", "0x7F800001");
        assertEquals(0, r.exit(), r.err());
        assertEquals("0x7C00 05\n0x3C00 00\n0x7E00 10\n", r.out());
        r = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "half", "--rounding", "rn", "--flags",
                "0x3F800000");
        assertEquals(2, r.exit());
        assertEquals("convcert: --flags: profile cuda declares no exception flags (no flags.csv); profiles with flags: riscv",
                r.err().strip());
    }
}
