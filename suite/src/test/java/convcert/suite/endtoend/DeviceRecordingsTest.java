package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.reference.ChunkDigest;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed device certifications stay reproducible without the device: replaying the recorded
 * outputs gives the committed verdicts case by case, and the committed digests of the exhaustive GPU
 * runs agree with the reference (one chunk per case recomputed here; all chunks were compared when
 * recorded).
 */
class DeviceRecordingsTest {

    static final Path H200 = Fixtures.HOME.resolve("reports/devices/nvidia-h200");

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> replayedVerdictsMatchTheCommittedReports() {
        record Run(Path device, String folder, List<String> args) { }
        Path hip = Fixtures.HOME.resolve("reports/devices/hip-ocp");
        return Stream.of(new Run(H200, "ascend-c", List.of()), new Run(H200, "cuda", List.of("--profile", "cuda", "--level", "ci")),
                new Run(H200, "cuda-exact-nan", List.of("--profile", "cuda", "--level", "ci", "--decision",
                        "nan-comparison=exact")), new Run(H200, "ocp-mx", List.of("--profile", "ocp-mx", "--level", "ci")),
                new Run(hip, "gfx950", List.of("--profile", "gfx950", "--level", "ci", "--only", "*/rn-*"))) // recorded before rs
                .map(run -> DynamicTest.dynamicTest(run.device().getFileName() + " " + run.folder(), () -> {
            Path out = temp.resolve(run.folder());
            List<String> args = new java.util.ArrayList<>(List.of("--adapter", "replay:dir=" + run.device().resolve("recording")));
            args.addAll(run.args());
            Fixtures.Run r = Fixtures.certify(out, args.toArray(String[]::new));
            assertTrue(r.exit() == 0 || r.exit() == 1, r.out() + r.err());
            Fixtures.sameCases(Fixtures.report(run.device().resolve(run.folder())), Fixtures.report(out),
                    List.of("name", "status", "vectors", "mismatches", "kinds", "firstMismatches"));
        }));
    }

    /**
     * AMD's host model takes the scale as the int8 exponent its header declares: read as the E8M0 byte HIP's
     * documentation names, every widening case fails (the scale 2^0 is byte 0 there, 2^-127 to an E8M0 reader).
     */
    @org.junit.jupiter.api.Test
    void hipsScaleIsAnExponentNotTheE8m0ByteItsDocumentationNames() throws IOException {
        Path hip = Fixtures.HOME.resolve("reports/devices/hip-ocp");
        Fixtures.Run r = Fixtures.certify(temp.resolve("e8m0"), "--profile", "gfx950", "--level", "ci", "--only", "*->float/*",
                "--decision", "scale-encoding=e8m0", "--adapter", "replay:dir=" + hip.resolve("recording"));
        assertEquals(1, r.exit(), r.out() + r.err());
        var cases = Fixtures.report(temp.resolve("e8m0")).path("cases");
        assertEquals(5, cases.size(), cases.toString());
        cases.forEach(c -> {
            assertEquals("FAIL", c.path("status").asText(), c.toString());
            assertTrue(c.path("mismatches").asLong() > c.path("vectors").asLong() / 2, c.toString());
        });
    }

    /** The OCP MX element conversions of cuda_fp4.h/cuda_fp6.h run over all 2^32 floats (digests-mx/). */
    @TestFactory
    Stream<DynamicTest> gpuElementDigestsAgreeWithTheReference() throws IOException {
        Reference reference = Reference.of(SpecTables.load(Fixtures.HOME.resolve("spec-tables/ocp-mx")));
        return Files.list(H200.resolve("digests-mx")).filter(p -> p.getFileName().toString().startsWith("digest-f2"))
                .sorted().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    String op = file.getFileName().toString().replaceAll("digest-|\\.txt", "");
                    String[] parts = op.split("_"); // f2e2m1_rn, f2e8m0_ru_sat
                    String to = switch (parts[0].substring(2)) {
                        case "e2m1" -> "fp4_e2m1";
                        case "e2m3" -> "fp6_e2m3";
                        case "e3m2" -> "fp6_e3m2";
                        default -> "e8m0";
                    };
                    Converter c = reference.converter(reference.resolve("float", to, parts[1], parts.length > 2 ? parts[2] : "sat",
                            reference.ctrl("")));
                    List<String> lines = Files.readAllLines(file);
                    assertEquals(256, lines.size());
                    int chunk = Math.floorMod(op.hashCode(), 256);
                    long gpu = Long.parseUnsignedLong(lines.get(chunk).split(" ")[1], 16);
                    long[] ours = ChunkDigest.digests(c, 24, -1, chunk, chunk + 1); // no NaN to normalise
                    assertEquals(Long.toHexString(gpu), Long.toHexString(ours[0]), op + " chunk " + chunk);
                }));
    }

    @TestFactory
    Stream<DynamicTest> gpuDigestsAgreeWithTheReference() throws IOException {
        Reference reference = Reference.of(SpecTables.load(Fixtures.HOME.resolve("spec-tables/ascend-c")));
        return Files.list(H200.resolve("digests")).filter(p -> p.getFileName().toString().startsWith("digest-")).sorted()
                .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    String op = file.getFileName().toString().replaceAll("digest-|\\.txt", "");
                    String to = op.startsWith("f2h") ? "half" : "bfloat16";
                    String mode = op.substring(op.indexOf('_') + 1);
                    Converter c = reference.converter(reference.resolve("float", to, mode, "nosat", reference.ctrl("60=0")));
                    List<String> lines = Files.readAllLines(file);
                    assertEquals(256, lines.size());
                    int chunk = Math.floorMod(op.hashCode(), 256); // a different chunk per case
                    long gpu = Long.parseUnsignedLong(lines.get(chunk).split(" ")[1], 16);
                    long[] ours = ChunkDigest.digests(c, 24, c.destination().format().nan(), chunk, chunk + 1);
                    assertEquals(Long.toHexString(gpu), Long.toHexString(ours[0]), op + " chunk " + chunk);
                }));
    }

    /** A recording replays under every profile: its case found by the path of its files, its outputs certified. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"ascend-c, float:half", "cuda, float:half", "opencl, float:half",
        "ieee754, float:half", "llvm, float:fp8_e4m3"})
    void aRecordingReplaysUnderEveryProfile(String profile, String pairName) throws IOException {
        Path vectors = temp.resolve("v-" + profile);
        assertEquals(0, Fixtures.run("", "generate", "--profile", profile, "--pair", pairName, "--level", "quick",
                "--format", "bin", "--out", vectors.toString()).exit());
        String folder = pairName.replace(':', '-');
        Path pair = vectors.resolve(profile).resolve(folder);
        Path expected;
        try (Stream<Path> files = Files.list(pair)) {
            expected = files.filter(f -> f.toString().endsWith(".expected.bin")).sorted().findFirst().orElseThrow();
        }
        Path recording = Files.createDirectories(temp.resolve("rec-" + profile).resolve(profile).resolve(folder));
        Files.copy(expected, recording.resolve(expected.getFileName().toString().replace(".expected.bin", ".out.bin")));
        Path out = temp.resolve("r-" + profile);
        Fixtures.Run r = Fixtures.certify(out, "--profile", profile, "--vectors", vectors.toString(), "--adapter",
                "replay:dir=" + temp.resolve("rec-" + profile));
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Fixtures.report(out).get("summary").get("passed").asInt() >= 1, r.out());
    }

    /**
     * A recording of a stochastic scaled case (gfx950's _sr_ forms) carries its lane words, scale and random
     * bits, beside its inputs: replayed, it passes; with the first carry vector's random bits one less, its
     * input and word are the next vector's, and a recording that holds one operand twice is an adapter failure
     * (exit 3); an output one step low where the random bits carry fails, showing the word.
     */
    @org.junit.jupiter.api.Test
    void aStochasticScaledRecordingReplaysWithItsLaneWords() throws IOException {
        Path vectors = temp.resolve("v-sr");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "gfx950", "--pair", "float:fp4_e2m1", "--level", "quick",
                "--format", "bin,csv", "--out", vectors.toString()).exit());
        Path from = vectors.resolve("gfx950/float-fp4_e2m1");
        Path recording = Files.createDirectories(temp.resolve("rec-sr/gfx950/float-fp4_e2m1"));
        Files.copy(from.resolve("rs-sat.in.bin"), recording.resolve("rs-sat.in.bin"));
        Files.copy(from.resolve("rs-sat.expected.bin"), recording.resolve("rs-sat.out.bin"));
        Path lanes = recording.resolve("rs-sat.scale-random.bin");
        byte[] words = Files.readAllBytes(from.resolve("rs-sat.scale-random.bin"));
        Files.write(lanes, words);
        String[] run = {"--profile", "gfx950", "--vectors", vectors.toString(), "--only", "float->fp4_e2m1/rs-*",
            "--adapter", "replay:dir=" + temp.resolve("rec-sr")};
        assertEquals("PASS", replayed(run, "sr", 0).get("status").asText());

        // the first carry vector holds the least random bits that carry out (above the 8-bit scale field)
        List<String> rows = Files.readAllLines(from.resolve("rs-sat.csv"));
        int k = java.util.stream.IntStream.range(1, rows.size()).filter(i -> rows.get(i).endsWith(",carry")).findFirst()
                .orElseThrow() - 1;
        java.nio.ByteBuffer word = java.nio.ByteBuffer.wrap(words.clone()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Files.write(lanes, word.putInt(4 * k, word.getInt(4 * k) - 256).array());
        String message = replayed(run, "sr-lanes", 3).get("message").asText();
        assertTrue(message.contains("twice with different outputs"), message);

        Files.write(lanes, words);
        byte[] out = Files.readAllBytes(recording.resolve("rs-sat.out.bin"));
        out[k]--; // a positive carry vector (the first is 0x7F7FFFFF's): one step toward zero
        Files.write(recording.resolve("rs-sat.out.bin"), out);
        com.fasterxml.jackson.databind.JsonNode c = replayed(run, "sr-out", 1);
        assertEquals("FAIL", c.get("status").asText());
        assertTrue(c.get("firstMismatches").get(0).asText().matches(".* scale -?\\d+ \\(0x\\w+\\) random 0x\\w+ .*"), c.toString());
    }

    private com.fasterxml.jackson.databind.JsonNode replayed(String[] run, String name, int exit) throws IOException {
        Fixtures.Run r = Fixtures.certify(temp.resolve(name), run);
        assertEquals(exit, r.exit(), r.out() + r.err());
        return Fixtures.find(Fixtures.report(temp.resolve(name)), "float->fp4_e2m1/rs-sat");
    }
}
