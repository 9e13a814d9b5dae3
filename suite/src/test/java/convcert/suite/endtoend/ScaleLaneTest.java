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
 * The scale lane end to end (arm: FEAT_FP8's FPMR.NSCALE and LSCALE): golden vectors pair each input
 * with scales, the process protocol carries them (SCALE), and suite/devices/arm-fp8-c, the conversions
 * written in C from the Arm ARM's text, agrees with the reference on every case; the same device made to
 * ignore its scale, round before scaling or read NSCALE unsigned fails, each diagnosed as its faults.csv
 * row; a device that takes no scales is sent no scaled case, and certifies nothing.
 */
class ScaleLaneTest {

    static final Path SOURCE = Fixtures.HOME.resolve("suite/devices/arm-fp8-c/fp8_dut.c");
    static Path device;

    @BeforeAll
    static void build(@TempDir Path dir) throws Exception {
        device = dir.resolve("fp8_dut");
        Process p = new ProcessBuilder("gcc", "-O2", "-o", device.toString(), SOURCE.toString()).redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc failed: " + output);
    }

    private static Fixtures.Run run(Path out, String fault, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--profile", "arm", "--level", "ci", "--adapter",
                "process:cmd=" + device + (fault == null ? "" : " --fault " + fault)));
        args.addAll(List.of(more));
        return Fixtures.certify(out, args.toArray(String[]::new));
    }

    @Test
    void theArmArmWrittenInCAgreesOnEveryScaledCase(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, null);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        for (String c : List.of("float->fp8_e4m3fn/rn-nosat", "float->fp8_e4m3fn/rn-sat", "half->fp8_e5m2/rn-nosat",
                "bfloat16->fp8_e4m3fn/rn-sat", "fp8_e5m2->half/rn-nosat", "fp8_e4m3fn->bfloat16/rn-nosat")) {
            JsonNode e = Fixtures.find(report, c);
            assertEquals("PASS", e.get("status").asText(), e.toString());
            assertTrue(e.get("vectors").asLong() >= 4096, e.toString());
        }
        // FP8 to half: every value with every LSCALE[3:0] (256 x 16)
        assertEquals(4096, Fixtures.find(report, "fp8_e5m2->half/rn-nosat").get("vectors").asLong());
    }

    /** The same C as a library: its scales travel through convcert-host's shared memory (convcert_convert_lane). */
    @Test
    void theSameConversionsAsANativeLibraryTakeTheirScalesThroughTheNativeAbi(@TempDir Path out) throws Exception {
        Path library = library(out, "libfp8.so", null);
        Fixtures.Run r = Fixtures.certify(out.resolve("ok"), "--profile", "arm", "--level", "ci", "--adapter",
                "native:lib=" + library);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS: 16 cases"), r.out());
        Path faulty = library(out, "libfp8-late.so", "scale-after-rounding");
        Fixtures.Run bad = Fixtures.certify(out.resolve("bad"), "--profile", "arm", "--level", "ci", "--adapter",
                "native:lib=" + faulty);
        assertEquals(1, bad.exit(), bad.out());
        assertTrue(bad.out().contains("diagnosis: scale-after-rounding ("), bad.out());
    }

    private static Path library(Path dir, String name, String fault) throws Exception {
        Path library = dir.resolve(name);
        List<String> command = new java.util.ArrayList<>(List.of("gcc", "-O2", "-shared", "-fPIC", "-DCONVCERT_LIBRARY",
                "-I", Fixtures.HOME.resolve("suite/native").toString(), "-o", library.toString(), SOURCE.toString()));
        if (fault != null) {
            command.add(2, "-DCONVCERT_FAULT=\"" + fault + "\"");
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc failed: " + output);
        return library;
    }

    @Test
    void ignoringTheScaleFailsAndIsDiagnosed(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "ignore-scale");
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->fp8_e4m3fn/rn-nosat");
        assertEquals("FAIL", c.get("status").asText());
        assertTrue(c.get("firstMismatches").get(0).asText().matches("input 0x[0-9A-F]{8} scale -?\\d+ \\(0x[0-9A-F]+\\) .*"),
                c.toString());
        assertTrue(r.out().contains("diagnosis: scale-ignored ("), r.out());
    }

    /** Rounding the unscaled value, then scaling, differs only where the scale crosses a range edge: scale-edge's vectors. */
    @Test
    void roundingBeforeScalingFailsEveryNarrowingAndIsDiagnosed(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "scale-after-rounding");
        assertEquals(1, r.exit(), r.out());
        JsonNode report = Fixtures.report(out);
        for (String from : List.of("float", "half", "bfloat16")) {
            for (String to : List.of("fp8_e4m3fn", "fp8_e5m2")) {
                assertEquals("FAIL", Fixtures.find(report, from + "->" + to + "/rn-nosat").get("status").asText(), from + to);
            }
        }
        assertTrue(r.out().contains("diagnosis: scale-after-rounding ("), r.out());
    }

    @Test
    void aSignedScaleReadUnsignedFailsAndIsDiagnosed(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "nscale-unsigned");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("diagnosis: scale-unsigned ("), r.out());
        JsonNode widening = Fixtures.find(Fixtures.report(out), "fp8_e4m3fn->half/rn-nosat");
        assertEquals("PASS", widening.get("status").asText(), "LSCALE is unsigned: " + widening);
    }

    /**
     * FCVTN from half reads only NSCALE[4:0] (the A64 instruction descriptions, 2024-03 to 2026-03): its lane is 5
     * bits, so -16 travels as 0x10, which a device reading the whole NSCALE byte takes for +16. The narrowing
     * from single precision reads all 8 bits and is unaffected.
     */
    @Test
    void fcvtnFromHalfReadsOnlyTheLowFiveBitsOfNscale(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "nscale-full-byte");
        assertEquals(1, r.exit(), r.out());
        JsonNode report = Fixtures.report(out);
        for (String to : List.of("fp8_e4m3fn", "fp8_e5m2")) {
            assertEquals("FAIL", Fixtures.find(report, "half->" + to + "/rn-nosat").get("status").asText(), to);
            assertEquals("PASS", Fixtures.find(report, "float->" + to + "/rn-nosat").get("status").asText(), to);
        }
        assertTrue(r.out().contains("scale -16 (0x10)"), r.out());
        assertTrue(r.out().contains("diagnosis: scale-unsigned ("), r.out());
    }

    /** E4M3's overflow with OSC=0 keeps the result's sign (decision overflow-nan): visible where NaNs compare exactly. */
    @Test
    void anUnsignedOverflowNanFailsUnderExactNanComparison(@TempDir Path out) throws Exception {
        Fixtures.Run any = run(out.resolve("any"), "unsigned-overflow-nan");
        assertEquals(0, any.exit(), "nan-comparison=any accepts any NaN\n" + any.out());
        Fixtures.Run exact = run(out.resolve("exact"), "unsigned-overflow-nan", "--decision", "nan-comparison=exact");
        assertEquals(1, exact.exit(), exact.out());
        JsonNode c = Fixtures.find(Fixtures.report(out.resolve("exact")), "float->fp8_e4m3fn/rn-nosat");
        assertEquals("FAIL", c.get("status").asText(), c.toString());
        assertEquals("PASS", Fixtures.find(Fixtures.report(out.resolve("exact")), "float->fp8_e4m3fn/rn-sat")
                .get("status").asText());
        Fixtures.Run right = run(out.resolve("right"), null, "--decision", "nan-comparison=exact");
        assertEquals(0, right.exit(), right.out());
    }

    @Test
    void aDeviceWithoutScaleInItsHandshakeIsSentNoScaledCase(@TempDir Path out) throws Exception {
        Fixtures.Run r = run(out, "no-scale");
        assertTrue(r.exit() != 0, "certified nothing: never a pass\n" + r.out());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->fp8_e4m3fn/rn-nosat");
        assertEquals("NOT_APPLICABLE", c.get("status").asText(), c.toString());
        assertTrue(c.toString().contains("takes no scales"), c.toString());
    }

    /** A recording of a scaled device replays with the scales its inputs were converted with. */
    @Test
    void aScaledRecordingReplaysAndOneWrongOutputFails(@TempDir Path out) throws Exception {
        Path vectors = out.resolve("v");
        Fixtures.Run g = Fixtures.run("", "generate", "--profile", "arm", "--level", "quick", "--pair", "fp8_e5m2:half",
                "--format", "bin", "--out", vectors.toString());
        assertEquals(0, g.exit(), g.err());
        assertTrue(Files.size(vectors.resolve("arm/fp8_e5m2-half/rn-nosat.scale.bin")) > 0);
        Path recording = Files.createDirectories(out.resolve("rec/arm/fp8_e5m2-half"));
        byte[] outputs = Files.readAllBytes(vectors.resolve("arm/fp8_e5m2-half/rn-nosat.expected.bin"));
        Files.write(recording.resolve("rn-nosat.out.bin"), outputs);
        String[] args = {"--profile", "arm", "--vectors", vectors.toString(), "--only", "fp8_e5m2->half/*",
            "--adapter", "replay:dir=" + out.resolve("rec")};
        Fixtures.Run r = Fixtures.certify(out.resolve("ok"), args);
        assertEquals(0, r.exit(), r.out() + r.err());
        outputs[2 * 1000] ^= 1;
        Files.write(recording.resolve("rn-nosat.out.bin"), outputs);
        r = Fixtures.certify(out.resolve("bad"), args);
        assertEquals(1, r.exit(), r.out());
        assertEquals(1, Fixtures.find(Fixtures.report(out.resolve("bad")), "fp8_e5m2->half/rn-nosat").get("mismatches")
                .asInt());
    }

    /** A scaled vector set regenerates byte for byte, and the drift gate sees its scale lane. */
    @Test
    void theScaleLaneIsUnderTheDriftGate(@TempDir Path out) throws Exception {
        Path vectors = out.resolve("v");
        String[] generate = {"generate", "--profile", "arm", "--level", "quick", "--out", vectors.toString()};
        assertEquals(0, Fixtures.run("", generate).exit());
        String manifest = Files.readString(vectors.resolve("manifest.json"));
        assertTrue(manifest.contains("rn-nosat.scale.bin") && manifest.contains("rn-nosat.scale.memh"), "the manifest lists the lane");
        List<String> check = new java.util.ArrayList<>(List.of(generate));
        check.add("--check");
        Fixtures.Run same = Fixtures.run("", check.toArray(String[]::new));
        assertEquals(0, same.exit(), same.out() + same.err());
        Path lane = vectors.resolve("arm/float-fp8_e4m3fn/rn-nosat.scale.bin");
        byte[] bytes = Files.readAllBytes(lane);
        bytes[bytes.length / 2] ^= 1;
        Files.write(lane, bytes);
        Fixtures.Run drift = Fixtures.run("", check.toArray(String[]::new));
        assertEquals(1, drift.exit(), drift.out() + drift.err());
        assertTrue((drift.out() + drift.err()).contains("rn-nosat.scale.bin"), drift.out() + drift.err());
    }

    @Test
    void convertTakesTheScaleAndRefusesItWhereThereIsNone() {
        Fixtures.Run r = Fixtures.run("", "convert", "--profile", "arm", "--from", "float", "--to", "fp8_e4m3fn", "--scale",
                "-10", "3F800000", "3FC00000");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("0x00", "0x01"), r.out().lines().toList(), "2^-10 ties to zero; 1.5 x 2^-10 rounds up to 2^-9");
        Fixtures.Run none = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "half", "--rounding",
                "rn", "--scale", "1", "3F800000");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("takes no scale"), none.err());
        Fixtures.Run missing = Fixtures.run("", "convert", "--profile", "arm", "--from", "fp8_e5m2", "--to", "half",
                "7B");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("--scale K (0 to 15)"), missing.err());
        Fixtures.Run range = Fixtures.run("", "convert", "--profile", "arm", "--from", "fp8_e5m2", "--to", "half",
                "--scale", "16", "7B");
        assertEquals(2, range.exit());
        assertTrue(range.err().contains("outside 0 to 15"), range.err());
    }
}
