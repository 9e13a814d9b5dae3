package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stochastic rounding's random-bits lane end to end (cuda rs): golden vectors pair each input with random
 * bits, the process protocol carries them (RANDOM), and suite/devices/stochastic-c, PTX cvt.rs written
 * in C from its text, agrees with the reference on every rs case (all seven cvt.rs forms); the same device made to ignore its
 * random bits, add them at the source's lowest bits, or read them one place too low fails, each
 * diagnosed where faults.csv has the bug; a device that takes no random bits is not sent rs cases.
 */
class StochasticLaneTest {

    static final Path SOURCE = Fixtures.HOME.resolve("suite/devices/stochastic-c/rs_dut.c");
    static Path device;

    @BeforeAll
    static void build(@TempDir Path dir) throws Exception {
        device = dir.resolve("rs_dut");
        Process p = new ProcessBuilder("gcc", "-O2", "-o", device.toString(), SOURCE.toString()).redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc failed: " + output);
    }

    private static Fixtures.Run run(Path out, String fault) {
        return Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--only", "float->*/rs-*", "--adapter",
                "process:cmd=" + device + (fault == null ? "" : " --fault " + fault));
    }

    @Test
    void cvtRsWrittenFromThePtxTextAgreesOnEveryStochasticCase(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, null);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        for (String c : List.of("float->half/rs-nosat", "float->bfloat16/rs-nosat", "float->fp6_e2m3/rs-sat",
                "float->fp6_e3m2/rs-sat", "float->fp4_e2m1/rs-sat", "float->fp8_e4m3fn/rs-sat", "float->fp8_e5m2/rs-sat")) {
            JsonNode e = Fixtures.find(report, c);
            assertEquals("PASS", e.get("status").asText(), e.toString());
            assertTrue(e.get("vectors").asLong() > 3000, e.toString());
        }
    }

    @Test
    void ignoringTheRandomBitsFailsAndIsDiagnosedAsTruncation(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "ignore-random");
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->half/rs-nosat");
        assertEquals("FAIL", c.get("status").asText());
        assertTrue(c.get("firstMismatches").get(0).asText().matches("input 0x[0-9A-F]{8} random 0x[0-9A-F]+ .*"),
                c.toString());
        assertTrue(r.out().contains("diagnosis: rs-as-rz ("), r.out());
    }

    /** The bug that makes stochastic rounding "almost always round down" into FP4: random bits at the wrong place. */
    @Test
    void randomBitsAddedAtTheSourcesLowestBitsFailWhereMoreBitsAreDiscarded(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "at-source-lsb");
        assertEquals(1, r.exit(), r.out());
        JsonNode fp4 = Fixtures.find(Fixtures.report(out), "float->fp4_e2m1/rs-sat");
        assertEquals("FAIL", fp4.get("status").asText());
        assertTrue(fp4.get("mismatches").asLong() > 100, fp4.toString());
        assertTrue(r.out().contains("rs-at-source-lsb"), r.out());
        Fixtures.Run shifted = run(out.resolve("shifted"), "shifted");
        assertEquals(1, shifted.exit(), shifted.out());
        assertTrue(shifted.out().lines().filter(l -> l.startsWith("FAIL float->")).count() == 7, shifted.out());
    }

    @Test
    void aDeviceWithoutRandomInItsHandshakeIsSentNoStochasticCase(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "no-random");
        assertTrue(r.exit() != 0, "certified nothing: never a pass\n" + r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->half/rs-nosat");
        assertEquals("NOT_APPLICABLE", c.get("status").asText(), c.toString());
        assertTrue(c.toString().contains("takes no random bits"), c.toString());
    }

    /** A recording of a stochastic device replays with the random bits its inputs were converted with. */
    @Test
    void aStochasticRecordingReplaysAndOneWrongOutputFails(@TempDir Path out) throws Exception {
        Path vectors = out.resolve("v");
        Fixtures.Run g = Fixtures.run("", "generate", "--profile", "cuda", "--level", "quick", "--pair", "float:fp4_e2m1",
                "--format", "bin", "--out", vectors.toString());
        assertEquals(0, g.exit(), g.err());
        Path recording = Files.createDirectories(out.resolve("rec/cuda/float-fp4_e2m1"));
        byte[] outputs = Files.readAllBytes(vectors.resolve("cuda/float-fp4_e2m1/rs-sat.expected.bin"));
        Files.write(recording.resolve("rs-sat.out.bin"), outputs);
        String[] args = {"--profile", "cuda", "--vectors", vectors.toString(), "--only", "float->fp4_e2m1/rs-*",
            "--adapter", "replay:dir=" + out.resolve("rec")};
        Fixtures.Run r = Fixtures.certify(out.resolve("ok"), args);
        assertEquals(0, r.exit(), r.out() + r.err());
        outputs[outputs.length / 2] ^= 1;
        Files.write(recording.resolve("rs-sat.out.bin"), outputs);
        r = Fixtures.certify(out.resolve("bad"), args);
        assertEquals(1, r.exit(), r.out());
        assertEquals(1, Fixtures.find(Fixtures.report(out.resolve("bad")), "float->fp4_e2m1/rs-sat").get("mismatches")
                .asInt());
    }

    @Test
    void convertTakesTheRandomBitsAndRefusesThemWhereThereAreNone() {
        Fixtures.Run r = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "half", "--rounding",
                "rs", "--random", "1FFF", "3F800001", "3F800000");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("0x3C01", "0x3C00"), r.out().lines().toList(), "one discarded unit carries with 0x1FFF; 1.0 is exact");
        Fixtures.Run none = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "half", "--rounding",
                "rn", "--random", "1", "3F800000");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("takes no random bits"), none.err());
        Fixtures.Run missing = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "half",
                "--rounding", "rs", "3F800000");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("--random HEX (13 bits"), missing.err());
    }
}
