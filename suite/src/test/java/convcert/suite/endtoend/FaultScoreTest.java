package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.faults.Fault;
import convcert.faults.FaultCatalogue;
import convcert.faults.FaultModel;
import convcert.faults.Faulty;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import convcert.spi.CtrlState;
import convcert.suite.model.FaultScore;
import convcert.suite.runner.FaultScoring;
import convcert.suite.runner.VectorStore;
import convcert.vectors.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault catalogue against the golden sets: the committed ci set catches every fault that can be
 * caught, every fault differs from the reference somewhere, and the command reports it.
 */
class FaultScoreTest {

    static final Path CATALOGUE = Fixtures.HOME.resolve("spec-tables/faults.csv");

    @Test
    void theCommittedCiSetCatchesTheWholeCatalogue() {
        Reference reference = Reference.of(SpecTables.load(Fixtures.HOME.resolve("spec-tables/ascend-c")));
        VectorStore store = VectorStore.open(Fixtures.HOME.resolve("vectors"));
        List<Manifest.Entry> entries = store.cases().stream().filter(e -> e.profile().equals("ascend-c")).toList();
        FaultScore score = FaultScoring.score(reference, store, entries, FaultCatalogue.load(CATALOGUE));
        for (FaultScore.Outcome o : score.faults()) {
            assertTrue(o.result() != FaultScore.Result.ESCAPED, o.id() + " escapes the committed ci set");
        }
        assertEquals(score.total(), score.caught());
        assertTrue(score.total() >= 36, "the catalogue's detectable faults that apply to ascend-c: " + score.total());
    }

    @Test
    void everyFaultDiffersFromTheReferenceSomewhere() {
        // Undetectable faults (NaN encodings under nan-comparison=any) still change bits; the others are
        // caught by the set above, which is a difference. Checked raw, on the committed ci set's inputs.
        Reference reference = Reference.of(SpecTables.load(Fixtures.HOME.resolve("spec-tables/ascend-c")));
        VectorStore store = VectorStore.open(Fixtures.HOME.resolve("vectors"));
        FaultModel model = new FaultModel(reference);
        for (Fault f : FaultCatalogue.load(CATALOGUE)) {
            if (f.detectable()) {
                continue;
            }
            boolean differs = false;
            for (Manifest.Entry e : store.cases()) {
                var c = reference.conversion(e.from(), e.to());
                var state = reference.resolve(c, convcert.spec.Rounding.parse(e.rounding()), convcert.spec.Form.parse(e.form()),
                        ctrl(reference, e));
                Faulty wrong = model.implementation(f, state);
                if (wrong == null) {
                    continue;
                }
                var right = reference.converter(state);
                for (long x : store.read(e, true, c.from().width())) {
                    if (wrong.apply(x) != right.apply(x)) {
                        differs = true;
                        break;
                    }
                }
                if (differs) {
                    break;
                }
            }
            assertTrue(differs, f.id() + " never changes a result");
        }
    }

    private static convcert.spi.CtrlState ctrl(Reference reference, Manifest.Entry e) {
        var ctrl = reference.tables().powerOnCtrl();
        for (var bit : e.ctrl().entrySet()) {
            ctrl = ctrl.with(Integer.parseInt(bit.getKey()), bit.getValue());
        }
        return ctrl;
    }

    /**
     * Each profile's ci set, generated as a user choosing the profile would, catches every detectable
     * fault that applies to it; README's table of scores says the same. A fault that applies to no
     * case is "not applicable" with the reason.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1}/{1}")
    @org.junit.jupiter.params.provider.CsvSource({"ascend-c, 46", "cuda, 45", "opencl, 28", "ocp-mx, 33", "rocm, 26", "riscv, 38", "arm, 27", "p3109, 35", "ieee754, 25", "gfx950, 35", "llvm, 30"})
    void everyProfilesCiSetScoresInFull(String profile, int faults, @TempDir Path temp) throws IOException {
        Path vectors = temp.resolve(profile);
        assertEquals(0, Fixtures.run("", "generate", "--profile", profile, "--level", "ci", "--format", "bin", "--out",
                vectors.toString()).exit());
        Fixtures.Run r = Fixtures.run("", "score", "--profile", profile, "--vectors", vectors.toString(), "--out",
                temp.resolve("score").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        String last = r.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(last.startsWith("fault score: " + faults + "/" + faults + " "), r.out());
        assertTrue(README.contains("| " + profile + " | " + faults + "/" + faults + " |"), "README's table says " + profile
                + " scores " + faults + "/" + faults);
        for (String line : r.out().lines().toList()) {
            if (line.contains(" not applicable ") && !line.startsWith("fault score")) {
                assertTrue(line.matches(".* not applicable +(applies to .* cases \\(.*faults\\.csv:\\d+(:\\d+)?\\); this set has none"
                        + "|the profile has no decision .*|the profile's decision .* already .*|no case rounds through .*"
                        + "|its mechanism \\(.*\\) has no effect on the cases it applies to .*)"), line);
            }
        }
        if (profile.equals("opencl")) { // no saturating floating destination: a non-saturating one cannot occur
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("never-saturate") && l.contains("not applicable")), r.out());
        }
        if (profile.equals("ascend-c")) { // a decision of the MX elements, which Ascend C does not make
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("finite-nan-zero") && l.contains("no decision finite-nan")),
                    r.out());
        }
        if (profile.equals("arm")) { // scaled cases are scored on their operands, scales included
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("nan-sign-dropped") && l.contains("undetectable")),
                    "invisible under nan-comparison=any: caught only when the faults convert the values without their scales\n"
                            + r.out());
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("scale-after-rounding") && l.contains("caught")), r.out());
        }
        if (profile.equals("gfx950")) { // HIP's int8 scale exponent read as the E8M0 byte its documentation names
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("scale-read-as-e8m0 ") && l.contains(" caught ")), r.out());
        }
        if (profile.equals("ocp-mx")) {
            assertTrue(r.out().contains("finite-nan-zero") && r.out().contains("unsigned-negative-nan"), r.out());
            for (String quantizer : List.of("signed-maximum", "maximum-skips-last", "scales-row-major", "swizzle-row-order", "shuffle-inverted",
                    "partial-block-reads-on")) { // a quantizer's faults, on the block and tensor cases
                assertTrue(r.out().lines().anyMatch(l -> l.startsWith(quantizer + " ") && l.contains("caught")), r.out());
            }
        }
        assertTrue(Files.isRegularFile(temp.resolve("score/score.json")));
        assertTrue(Files.readString(temp.resolve("score/score.html")).contains("<h1>Fault score "));
    }

    static final String README;

    static {
        try {
            README = Files.readString(Fixtures.HOME.resolve("README.md"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aBadCatalogueRowIsOneLineAndExit2(@TempDir Path temp) throws IOException {
        Path catalogue = temp.resolve("faults.csv");
        Files.writeString(catalogue, Files.readAllLines(CATALOGUE).getFirst() + "\n"
                + "bad,test,telepathy,x,*,yes,no such mechanism\n");
        Fixtures.Run r = Fixtures.run("", "score", "--faults", catalogue.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("faults.csv:2:3: mechanism: unknown mechanism 'telepathy'"), r.err());
    }

    /** A vector set of one exact input (1.0 -> half) cannot see rn implemented as truncation: exit 1. */
    @Test
    void aFaultThatEscapesFailsTheScore(@TempDir Path temp) throws IOException {
        Path vectors = temp.resolve("v");
        assertEquals(0, Fixtures.run("", "generate", "--pair", "float:half", "--format", "bin", "--out",
                vectors.toString()).exit());
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(vectors.resolve("manifest.json").toFile());
        for (var c : root.get("cases")) {
            var entry = (com.fasterxml.jackson.databind.node.ObjectNode) c;
            entry.put("count", 1);
            var files = (com.fasterxml.jackson.databind.node.ObjectNode) entry.get("files");
            for (String suffix : List.of(".in.bin", ".expected.bin")) {
                Path file = vectors.resolve(files.get(suffix).get("path").asText());
                byte[] one = suffix.equals(".in.bin") ? new byte[] {0, 0, (byte) 0x80, 0x3F} : new byte[] {0, 0x3C};
                Files.write(file, one);
                ((com.fasterxml.jackson.databind.node.ObjectNode) files.get(suffix)).put("sha256",
                        convcert.common.Sha256.of(file));
            }
        }
        json.writeValue(vectors.resolve("manifest.json").toFile(), root);
        Path catalogue = temp.resolve("faults.csv");
        Files.writeString(catalogue, Files.readAllLines(CATALOGUE).getFirst() + "\n"
                + "rn-as-rz,mode mix-up,rounding,rn->rz,rn,yes,round to nearest implemented as truncation\n");
        Fixtures.Run r = Fixtures.run("", "score", "--vectors", vectors.toString(), "--faults", catalogue.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("rn-as-rz") && r.out().contains("ESCAPED"), r.out());
        assertTrue(r.out().strip().endsWith("fault score: 0/1 (0 not applicable to this vector set, 0 undetectable by design)"),
                r.out());
    }

    /**
     * A flush-to-zero float->half converter (the JDK's conversion with subnormal results flushed),
     * recorded and replayed: certify names the fault that explains every mismatch and no pass.
     */
    @Test
    void certifyDiagnosesAFlushToZeroConverter(@TempDir Path temp) throws IOException {
        Path pair = Files.createDirectories(temp.resolve("rec/ascend-c/float-half"));
        byte[] in = Files.readAllBytes(Fixtures.HOME.resolve("vectors/ascend-c/float-half/rn-nosat.in.bin"));
        java.nio.ByteBuffer inputs = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(in.length / 2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        while (inputs.hasRemaining()) {
            short h = Float.floatToFloat16(Float.intBitsToFloat(inputs.getInt()));
            out.putShort((h & 0x7C00) == 0 ? (short) (h & 0x8000) : h);
        }
        Files.write(pair.resolve("rn-nosat.out.bin"), out.array());
        Path report = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(report, "--adapter", "replay:dir=" + temp.resolve("rec"));
        assertEquals(1, r.exit(), r.out());
        String diagnosis = Fixtures.find(Fixtures.report(report), "float->half/rn-nosat").get("diagnosis").asText();
        assertTrue(diagnosis.matches("ftz \\(.*\\): gives all [\\d,]+ mismatches and changes none of the [\\d,]+ passes.*"), diagnosis);
        assertTrue(r.out().contains("    diagnosis: ftz ("), r.out());
        assertTrue(r.out().contains("failing cases by diagnosis: ftz 1"), r.out());
        assertTrue(Files.readString(report.resolve("conformance.html")).contains("Diagnosis:"));
        // Where they fall: float inputs whose half results are subnormal, binades 2^-25 .. 2^-15 only.
        var where = Fixtures.find(Fixtures.report(report), "float->half/rn-nosat").get("where");
        where.fieldNames().forEachRemaining(bin -> {
            int e = Integer.parseInt(bin.substring(2));
            assertTrue(e >= -25 && e <= -15, bin);
        });
        assertTrue(Files.readString(report.resolve("conformance.html")).contains("Mismatching inputs per input binade"));
    }

    /**
     * A float->bfloat16 converter whose nearest rounding sends ties toward zero, recorded and replayed:
     * the same bug everywhere, at the overflow tie 0x7F7F8000 too, so the diagnosis is complete and every
     * mismatch is one step (none an overflow).
     */
    @Test
    void tiesTowardZeroAreOneBugUpToTheOverflowTie(@TempDir Path temp) throws IOException {
        Path report = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(report, "--adapter", "replay:dir=" + tiesTowardZero(temp, -1));
        assertEquals(1, r.exit(), r.out());
        var c = Fixtures.find(Fixtures.report(report), "float->bfloat16/rn-nosat");
        assertTrue(c.get("diagnosis").asText().matches("ties-toward-zero \\(.*\\): gives all [\\d,]+ mismatches and changes none"
                + " of the [\\d,]+ passes.*"), c.get("diagnosis").asText());
        assertEquals("{\"one step (rounding)\":" + c.get("mismatches").asLong() + "}", c.get("kinds").toString());
    }

    /**
     * The classic float->bfloat16 bug, truncation: right for every number under rz, but a NaN whose payload lies
     * in the 16 dropped bits becomes infinity. The diagnosis names the NaN fault that changes a result's class,
     * which nan-comparison=any sees, and score counts it in every profile it applies to.
     */
    @Test
    void aNanTruncatedToInfinityIsNamed(@TempDir Path temp) throws Exception {
        Fixtures.Run r = Fixtures.certify(temp, "--adapter", "process:cmd=" + Fixtures.exampleDevice() + " --fault truncate",
                "--pair", "float:bfloat16");
        assertEquals(1, r.exit(), r.out());
        var c = Fixtures.find(Fixtures.report(temp), "float->bfloat16/rz-nosat");
        assertTrue(c.get("diagnosis").asText().matches("nan-truncated \\(.*\\): gives all [\\d,]+ mismatches and changes none"
                + " of the [\\d,]+ passes.*"), c.toString());
        assertEquals("{\"NaN vs number\":" + c.get("mismatches").asLong() + "}", c.get("kinds").toString());
    }

    /**
     * The same converter with one more wrong output elsewhere: ties-toward-zero is a part of the cause, named with
     * the region where it gives the results and the one where it does not, and the findings show the rest.
     */
    @Test
    void aPartOfTheCauseIsNamedWithWhereItDoesNotHold(@TempDir Path temp) throws IOException {
        Path report = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(report, "--adapter", "replay:dir=" + tiesTowardZero(temp, 0));
        assertEquals(1, r.exit(), r.out());
        var c = Fixtures.find(Fixtures.report(report), "float->bfloat16/rn-nosat");
        byte[] in = Files.readAllBytes(Fixtures.HOME.resolve("vectors/ascend-c/float-bfloat16/rn-nosat.in.bin"));
        String first = String.format("0x%08X", java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt());
        assertTrue(c.get("diagnosis").asText().startsWith("in part ties-toward-zero ("), c.toString());
        assertFalse(c.get("diagnosisData").get("complete").asBoolean(), c.toString());
        // the extra wrong output shares its cell, 0 <= x < 2^-129, with a tie: the part leaves both out
        assertTrue(c.get("diagnosis").asText().contains("gives the 195 mismatches and no other result; not the 2 mismatches"
                + " where 0 <= x < 2^-129"), c.toString());
        assertTrue(c.get("firstMismatches").get(0).asText().startsWith("input " + first), c.toString());
    }

    /** A recording of ties-toward-zero float->bfloat16 rn over the committed inputs; output wrong (index) flipped too. */
    private static Path tiesTowardZero(Path temp, int wrong) throws IOException {
        Path pair = Files.createDirectories(temp.resolve("rec/ascend-c/float-bfloat16"));
        byte[] in = Files.readAllBytes(Fixtures.HOME.resolve("vectors/ascend-c/float-bfloat16/rn-nosat.in.bin"));
        java.nio.ByteBuffer inputs = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(in.length / 2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        boolean overflowTie = false;
        while (inputs.hasRemaining()) {
            int x = inputs.getInt();
            int magnitude = x & 0x7FFFFFFF;
            overflowTie |= magnitude == 0x7F7F8000;
            int h = magnitude > 0x7F800000 ? (x >>> 16) | 0x40 : ((magnitude + 0x7FFF) >>> 16) | ((x >>> 16) & 0x8000);
            out.putShort((short) h);
        }
        assertTrue(overflowTie, "the vectors hold the overflow tie");
        byte[] outputs = out.array();
        if (wrong >= 0) {
            outputs[2 * wrong] ^= 0x03;
        }
        Files.write(pair.resolve("rn-nosat.out.bin"), outputs);
        return temp.resolve("rec");
    }

    /** Scoring another profile's vector set scores nothing: exit 5, saying which profile the folder holds. */
    @Test
    void anotherProfilesVectorsScoreNothing(@TempDir Path temp) throws IOException {
        Path dir = temp.resolve("mx");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "ocp-mx", "--level", "quick", "--format", "bin", "--out",
                dir.toString()).exit());
        Fixtures.Run r = Fixtures.run("", "score", "--vectors", dir.toString());
        assertEquals(5, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("holds vectors of profile ocp-mx, none of profile ascend-c"), r.out());
        Fixtures.Run c = Fixtures.certify(temp.resolve("report"), "--vectors", dir.toString());
        assertEquals(5, c.exit());
        assertTrue(c.out().contains("holds vectors of profile ocp-mx, none of profile ascend-c"), c.out());
    }
}
