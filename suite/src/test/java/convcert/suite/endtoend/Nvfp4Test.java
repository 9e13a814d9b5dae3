package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.SpecTables;
import convcert.suite.runner.VectorStore;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.Manifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NVFP4 through the suite: suite/devices/nvfp4-python (numpy binary32, written from the recipes'
 * sources) speaks the BLOCKS batch with the tensor's largest magnitude before every block. Its
 * TransformerEngine recipe passes under the cuda profile's defaults, blocks and whole tensors (tensors.csv,
 * the TENSORS batch); its torchao recipe fails there and
 * passes under the decisions that describe torchao; a failure names the recipe's steps, and its diagnosis the
 * decisions that describe the device.
 */
class Nvfp4Test {

    @TempDir
    static Path shared;

    static Path vectors;

    static final String DEVICE = "process:cmd=python3 " + Path.of("..", "suite", "devices", "nvfp4-python", "dut.py")
            .toAbsolutePath().normalize();

    @BeforeAll
    static void generate() {
        vectors = shared.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "cuda", "--format", "bin", "--out",
                vectors.toString()).exit());
    }

    @Test
    void transformerEnginesRecipePassesUnderTheDefaults() throws Exception {
        Fixtures.Run r = Fixtures.certify(shared.resolve("te"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*/rn-*", "--adapter", DEVICE);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(shared.resolve("te"));
        assertEquals("PASS", Fixtures.find(report, "float->nvfp4/rn-block").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "nvfp4->float/rn-block").get("status").asText());
        // whole tensors (tensors.csv): the device finds A with an fmaxf-like reduction, lays the scales out itself
        assertEquals("PASS", Fixtures.find(report, "float->nvfp4_t130x64_sw/rn-tensor").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "nvfp4_t5x40->float/rn-tensor").get("status").asText());
        // TransformerEngine's RHT, a float32 matmul in the device: its order of summation cannot matter
        assertEquals("PASS", Fixtures.find(report, "float->nvfp4_t64x24_col_rht/rn-tensor").get("status").asText());
    }

    /** A quantizer that puts the RHT's signs on the rotated values fails, and the diagnosis names that reading. */
    @Test
    void theRotationsSignsAreFoundByDiagnosis() throws Exception {
        String after = DEVICE + " --rht-signs outputs";
        JsonNode report = certify(1, "rht", "float->*rht/r*", after);
        assertEquals("rotation-signs=outputs", recipe(Fixtures.find(report, "float->nvfp4_t64x24_col_rht/rn-tensor")));
        assertEquals("rotation-signs=outputs", recipe(Fixtures.find(report, "float->nvfp4_t64x24_col_rht/rs-tensor")));
        certify(0, "rht-decided", "float->*rht/r*", after, "rotation-signs=outputs");
    }

    /** Certifies the cases only selects, under the decisions given, expecting exit; the report. */
    private static JsonNode certify(int exit, String out, String only, String adapter, String... decisions) throws Exception {
        List<String> args = new ArrayList<>(List.of("--profile", "cuda", "--vectors", vectors.toString(), "--only", only,
                "--adapter", adapter));
        for (String d : decisions) {
            args.addAll(List.of("--decision", d));
        }
        Fixtures.Run r = Fixtures.certify(shared.resolve(out), args.toArray(String[]::new));
        assertEquals(exit, r.exit(), r.out() + r.err());
        return Fixtures.report(shared.resolve(out));
    }

    /**
     * NVIDIA's UE5M3 as the block scale (nvfp4_ue5m3, TransformerEngine's CUDA 13.4 option): the recipe with M =
     * 114688 x 6 passes; the same device scaling by E4M3 (M = 2688) fails.
     */
    @Test
    void theUe5m3ScaledRowNeedsTheUe5m3Scale() throws Exception {
        String ue5m3 = DEVICE + " --name nvfp4_ue5m3";
        Fixtures.Run r = Fixtures.certify(shared.resolve("ue5m3"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4_ue5m3*", "--adapter", ue5m3 + " --scale ue5m3");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(shared.resolve("ue5m3"));
        assertEquals("PASS", Fixtures.find(report, "float->nvfp4_ue5m3/rn-block").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "nvfp4_ue5m3->float/rn-block").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "float->nvfp4_ue5m3/rs-block").get("status").asText()); // random bits too
        r = Fixtures.certify(shared.resolve("ue5m3-as-e4m3"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4_ue5m3*/rn-*", "--adapter", ue5m3);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertEquals("FAIL", Fixtures.find(Fixtures.report(shared.resolve("ue5m3-as-e4m3")), "float->nvfp4_ue5m3/rn-block")
                .get("status").asText());
    }

    @Test
    void torchaosRecipeFailsUnderTheDefaultsAndPassesUnderItsDecisions() throws Exception {
        String torchao = DEVICE + " --recipe torchao";
        Fixtures.Run r = Fixtures.certify(shared.resolve("torchao"), "--profile", "cuda", "--vectors",
                vectors.toString(), "--only", "*nvfp4*/rn-*", "--adapter", torchao);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode quantize = Fixtures.find(Fixtures.report(shared.resolve("torchao")), "float->nvfp4/rn-block");
        assertEquals("FAIL", quantize.get("status").asText());
        String rules = quantize.get("rules").toString();
        assertTrue(rules.contains("tensor-scale-arithmetic=reciprocal") && rules.contains("block scale S"), rules);
        // the diagnosis finds the recipe: each direction's simplest reading that gives every block the device gave
        assertEquals("tensor-scale-arithmetic=divide block-scale-minimum=smallest-normal", recipe(quantize));
        // torchao 0.19's divide-multiply dequantizes as divide does: the blocks cannot tell them apart
        assertEquals("tensor-scale-arithmetic=divide block-scale-sign=signed"
                + " or tensor-scale-arithmetic=divide-multiply block-scale-sign=signed",
                recipe(Fixtures.find(Fixtures.report(shared.resolve("torchao")), "nvfp4->float/rn-block")));
        // from whole tensors alone too, with the tensor's A: torch.amax propagates NaN
        assertEquals("tensor-scale-arithmetic=divide block-scale-minimum=smallest-normal tensor-amax-nan=propagate",
                recipe(Fixtures.find(Fixtures.report(shared.resolve("torchao")), "float->nvfp4_t5x40/rn-tensor")));
        r = Fixtures.certify(shared.resolve("torchao-decided"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*/rn-*", "--decision", "tensor-scale-arithmetic=divide", "--decision",
                "block-scale-minimum=smallest-normal", "--decision", "block-scale-sign=signed", "--decision",
                "tensor-amax-nan=propagate", "--adapter", torchao);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("8 cases"), r.out());
    }

    /** The readings a complete diagnosis names, " or " between readings that give the same blocks. */
    static String recipe(JsonNode c) {
        JsonNode d = c.get("diagnosisData");
        assertTrue(d != null && d.get("complete").asBoolean() && !d.get("faults").isEmpty(), c.toString());
        List<String> readings = new ArrayList<>();
        d.get("faults").forEach(f -> readings.add(f.get("fault").asText()));
        return String.join(" or ", readings);
    }

    @Test
    void vllmsReferenceRecipeFailsUnderTheDefaultsAndPassesUnderItsDecisions() throws Exception {
        String vllm = DEVICE + " --recipe vllm";
        JsonNode quantize = Fixtures.find(certify(1, "vllm", "*nvfp4*/rn-*", vllm), "float->nvfp4/rn-block");
        assertEquals("FAIL", quantize.get("status").asText());
        assertEquals("tensor-scale-arithmetic=reciprocal-amax", recipe(quantize));
        for (String[] decisions : new String[][] {{"tensor-scale-arithmetic=reciprocal"}, {"tensor-scale-arithmetic=divide"},
            {"tensor-scale-arithmetic=reciprocal-amax"}}) {
            certify(decisions[0].endsWith("reciprocal-amax") ? 0 : 1, "vllm-" + decisions[0].replace('=', '-'),
                    "float->nvfp4*/rn-*", vllm, decisions[0], "tensor-amax-nan=propagate");
        }
        Fixtures.Run r = Fixtures.certify(shared.resolve("vllm-decided"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*/rn-*", "--decision", "tensor-scale-arithmetic=reciprocal-amax", "--decision",
                "block-scale-sign=signed", "--decision", "tensor-amax-nan=propagate", "--adapter", vllm);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("8 cases"), r.out());
    }

    @Test
    void eachOfTorchaosDecisionsIsNeeded() {
        // with one of the four left at its default the torchao recipe still fails: each is reached
        String torchao = DEVICE + " --recipe torchao";
        String[] decisions = {"tensor-scale-arithmetic=divide", "block-scale-minimum=smallest-normal",
            "block-scale-sign=signed", "tensor-amax-nan=propagate"};
        for (int left = 0; left < decisions.length; left++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--profile", "cuda", "--vectors",
                    vectors.toString(), "--only", "*nvfp4*/rn-*", "--adapter", torchao));
            for (int i = 0; i < decisions.length; i++) {
                if (i != left) {
                    args.add("--decision");
                    args.add(decisions[i]);
                }
            }
            Fixtures.Run r = Fixtures.certify(shared.resolve("without-" + left), args.toArray(String[]::new));
            assertEquals(1, r.exit(), "without " + decisions[left] + ": " + r.out());
        }
    }

    @Test
    void aDeviceThatPacksTheHighNibbleFirstFailsUnlessTheDecisionSaysSo() throws Exception {
        // vectors generated low-first (the default), read as generated whatever the run's decision
        String high = DEVICE + " --nibbles high-first";
        Fixtures.Run r = Fixtures.certify(shared.resolve("high-default"), "--profile", "cuda", "--vectors",
                vectors.toString(), "--only", "*nvfp4*/rn-*", "--adapter", high);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(shared.resolve("high-default"));
        assertEquals("FAIL", Fixtures.find(report, "float->nvfp4/rn-block").get("status").asText());
        assertEquals("FAIL", Fixtures.find(report, "nvfp4->float/rn-block").get("status").asText());
        r = Fixtures.certify(shared.resolve("high-decided"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*/rn-*", "--decision", "nibble-order=high-first", "--adapter", high);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("8 cases"), r.out());
        // and the default device fails under high-first: the decision is not a waiver
        r = Fixtures.certify(shared.resolve("low-under-high"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "float->nvfp4/rn-block", "--decision", "nibble-order=high-first", "--adapter", DEVICE);
        assertEquals(1, r.exit(), r.out() + r.err());
    }

    @Test
    void vectorsGeneratedHighFirstHoldTheFirstElementInTheHighNibble() throws Exception {
        Path high = shared.resolve("vectors-high");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "cuda", "--format", "bin", "--decision",
                "nibble-order=high-first", "--out", high.toString()).exit());
        byte[] low = java.nio.file.Files.readAllBytes(vectors.resolve("cuda/float-nvfp4/rn-block.expected.bin"));
        byte[] swapped = java.nio.file.Files.readAllBytes(high.resolve("cuda/float-nvfp4/rn-block.expected.bin"));
        assertEquals(low.length, swapped.length);
        int differing = 0;
        for (int i = 0; i < low.length; i++) {
            // 9 bytes per block: the scale, then 8 bytes of two elements each
            int expected = i % 9 == 0 ? low[i] : (low[i] & 0xF) << 4 | (low[i] >> 4) & 0xF;
            assertEquals((byte) expected, swapped[i], "byte " + i);
            differing += low[i] != swapped[i] ? 1 : 0;
        }
        assertTrue(differing > 0);
        // the high-first set certifies the high-first device with no recomputation
        Fixtures.Run r = Fixtures.certify(shared.resolve("high-set"), "--profile", "cuda", "--vectors", high.toString(),
                "--only", "*nvfp4*/rn-*", "--decision", "nibble-order=high-first", "--adapter", DEVICE + " --nibbles high-first");
        assertEquals(0, r.exit(), r.out() + r.err());
    }

    @Test
    void storedBlocksAreReadInTheOrderTheyWereGeneratedIn() throws Exception {
        Path high = shared.resolve("vectors-high-read");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "cuda", "--format", "bin", "--decision",
                "nibble-order=high-first", "--out", high.toString()).exit());
        SpecTables cuda = SpecTables.load(Fixtures.HOME.resolve("spec-tables/cuda"));
        long[] first = null;
        for (Path set : new Path[] {vectors, high}) {
            VectorStore store = VectorStore.open(set);
            Manifest.Entry e = store.cases().stream().filter(x -> x.from().equals("nvfp4")).findFirst().orElseThrow();
            for (String order : new String[] {"low-first", "high-first"}) {
                Reference run = new Reference(cuda, Semantics.of(cuda, Map.of("nibble-order", order)));
                long[] inputs = store.readBlocks(e, true, BlockVectorFiles.converter(run, e.from(), e.to(), e.rounding()));
                if (first == null) {
                    first = inputs;
                }
                assertArrayEquals(first, inputs, set.getFileName() + " read under " + order);
            }
        }
    }
}
