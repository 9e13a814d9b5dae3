package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * PyTorch's casts recorded on a CPU and an H200 (reports/devices/pytorch): replaying the recordings gives
 * the committed verdicts case by case, its float64 casts are diagnosed as rounding through float32, its
 * float8_e8m0fnu cast rounds some float subnormals the wrong way, torchao's NVFP4 steps give other
 * bits on the GPU than on the CPU, and certification under the defaults finds each NVFP4 quantizer's recipe.
 */
class PytorchRecordingsTest {

    static final Path PYTORCH = Fixtures.HOME.resolve("reports/devices/pytorch");

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> float8E8m0fnuRoundsFloatSubnormalsAboveTwoToMinus127Up() {
        // torch.float8_e8m0fnu from float: the 44 failing inputs are the float subnormals in (2^-127, 1.5 x 2^-127),
        // nearer 2^-127 (0x00) but given 2^-126 (0x01); the rest of the ci set, and e8m0 -> float, agree.
        return Stream.of("cpu", "cuda").map(device -> DynamicTest.dynamicTest("torch " + device + " under ocp-mx", () -> {
            String folder = device + "-ocp-mx";
            Fixtures.Run r = Fixtures.certify(temp.resolve(folder), "--profile", "ocp-mx", "--level", "ci",
                    "--adapter", "replay:dir=" + PYTORCH.resolve("recording-" + device));
            assertEquals(1, r.exit(), r.out() + r.err());
            JsonNode now = Fixtures.report(temp.resolve(folder));
            Fixtures.sameCases(Fixtures.report(PYTORCH.resolve(folder)), now,
                    List.of("name", "status", "vectors", "mismatches", "kinds"));
            JsonNode c = Fixtures.find(now, "float->e8m0/rn-nosat");
            assertEquals(44, c.get("mismatches").asInt());
            for (JsonNode m : c.get("firstMismatches")) {
                int bits = Integer.parseUnsignedInt(m.asText().substring("input 0x".length(), "input 0x".length() + 8), 16);
                int magnitude = bits & 0x7FFFFFFF;
                assertTrue(magnitude > 0x400000 && magnitude < 0x600000 && m.asText().contains("expected 0x00")
                        && m.asText().contains("actual 0x01"), m.asText());
            }
            assertEquals("PASS", Fixtures.find(now, "e8m0->float/rn-nosat").get("status").asText());
        }));
    }

    @TestFactory
    Stream<DynamicTest> torchaosNvfp4StepsDivideOnTheCpuAndMultiplyByReciprocalsOnTheGpu() {
        // the same PyTorch code passes under tensor-scale-arithmetic=divide on the CPU and only under
        // divide-constant-reciprocal on the H200, and each fails under the other's option
        return Stream.of("cpu", "cuda").map(device -> DynamicTest.dynamicTest("torch " + device, () -> {
            String own = device.equals("cpu") ? "divide" : "divide-constant-reciprocal";
            String other = device.equals("cpu") ? "divide-constant-reciprocal" : "divide";
            for (String arithmetic : List.of(own, other)) {
                Path out = temp.resolve("nvfp4-" + device + "-" + arithmetic);
                Fixtures.Run r = Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--only", "*nvfp4*",
                        "--decision", "tensor-scale-arithmetic=" + arithmetic, "--decision", "block-scale-minimum=smallest-normal",
                        "--decision", "block-scale-sign=signed", "--adapter", "replay:dir=" + PYTORCH.resolve("recording-nvfp4-" + device));
                assertEquals(arithmetic.equals(own) ? 0 : 1, r.exit(), arithmetic + ": " + r.out() + r.err());
                if (arithmetic.equals(own)) {
                    Fixtures.sameCases(Fixtures.report(PYTORCH.resolve("nvfp4-" + device)), Fixtures.report(out),
                            List.of("name", "status", "vectors", "mismatches"));
                }
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> vllmsReferenceRecipePassesOnlyUnderReciprocalAmaxOnBothDevices() {
        // vLLM's ref_nvfp4_quant and dequantize_nvfp4_to_dtype in PyTorch operations: the same bits on the
        // CPU and the H200 (no division by a Python number), and only under reciprocal-amax
        return Stream.of("cpu", "cuda").map(device -> DynamicTest.dynamicTest("torch " + device, () -> {
            for (String arithmetic : List.of("reciprocal-amax", "reciprocal", "divide", "divide-constant-reciprocal")) {
                Path out = temp.resolve("nvfp4-vllm-" + device + "-" + arithmetic);
                Fixtures.Run r = Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--only", "*nvfp4*",
                        "--decision", "tensor-scale-arithmetic=" + arithmetic, "--decision", "block-scale-sign=signed",
                        "--adapter", "replay:dir=" + PYTORCH.resolve("recording-nvfp4-vllm-" + device));
                boolean own = arithmetic.equals("reciprocal-amax");
                assertEquals(own ? 0 : 1, r.exit(), arithmetic + ": " + r.out() + r.err());
                if (own) {
                    Fixtures.sameCases(Fixtures.report(PYTORCH.resolve("nvfp4-vllm-" + device)), Fixtures.report(out),
                            List.of("name", "status", "vectors", "mismatches"));
                }
            }
        }));
    }

    /**
     * The recipe found by certification: replayed under the cuda profile's defaults (TransformerEngine's
     * recipe), each recorded NVFP4 quantizer fails, and the diagnosis names, per direction, the one reading
     * of the recipe's decisions that gives every block it recorded, which are the decisions the tests
     * above pass it under.
     */
    @TestFactory
    Stream<DynamicTest> theDiagnosisFindsEachRecordedQuantizersRecipe() {
        String[][] recipes = {
            {"nvfp4-cpu", "tensor-scale-arithmetic=divide block-scale-minimum=smallest-normal",
                "tensor-scale-arithmetic=divide block-scale-sign=signed"
                    + " or tensor-scale-arithmetic=divide-multiply block-scale-sign=signed"},
            {"nvfp4-cuda", "tensor-scale-arithmetic=divide-constant-reciprocal block-scale-minimum=smallest-normal",
                "tensor-scale-arithmetic=divide-constant-reciprocal block-scale-sign=signed"},
            {"nvfp4-vllm-cpu", "tensor-scale-arithmetic=reciprocal-amax",
                "tensor-scale-arithmetic=reciprocal-amax block-scale-sign=signed"},
            {"nvfp4-vllm-cuda", "tensor-scale-arithmetic=reciprocal-amax",
                "tensor-scale-arithmetic=reciprocal-amax block-scale-sign=signed"},
        };
        return Stream.of(recipes).map(recipe -> DynamicTest.dynamicTest(recipe[0], () -> {
            Path out = temp.resolve("found-" + recipe[0]);
            Fixtures.Run r = Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--only", "*nvfp4*",
                    "--adapter", "replay:dir=" + PYTORCH.resolve("recording-" + recipe[0]));
            assertEquals(1, r.exit(), r.out() + r.err());
            JsonNode report = Fixtures.report(out);
            assertEquals(recipe[1], Nvfp4Test.recipe(Fixtures.find(report, "float->nvfp4/rn-block")));
            assertEquals(recipe[2], Nvfp4Test.recipe(Fixtures.find(report, "nvfp4->float/rn-block")));
        }));
    }

    @TestFactory
    Stream<DynamicTest> replayedVerdictsMatchTheCommittedReports() {
        return Stream.of("cpu", "cuda").flatMap(device -> Stream.of("cuda", "rocm").map(profile -> DynamicTest.dynamicTest(
                "torch " + device + " under " + profile, () -> {
                    String folder = device + "-" + profile;
                    Fixtures.Run r = Fixtures.certify(temp.resolve(folder), "--profile", profile, "--level", "ci",
                            "--adapter", "replay:dir=" + PYTORCH.resolve("recording-" + device));
                    assertEquals(profile.equals("cuda") ? 1 : 0, r.exit(), r.out() + r.err());
                    JsonNode now = Fixtures.report(temp.resolve(folder));
                    Fixtures.sameCases(Fixtures.report(PYTORCH.resolve(folder)), now,
                            List.of("name", "status", "vectors", "mismatches", "kinds"));
                    if (profile.equals("cuda")) {
                        for (String c : List.of("double->half/rn-nosat", "double->bfloat16/rn-nosat",
                                "double->fp8_e4m3fn/rn-nosat", "double->fp8_e5m2/rn-nosat")) {
                            JsonNode d = Fixtures.find(now, c).get("diagnosisData");
                            assertTrue(d.get("complete").asBoolean(), c + " " + d);
                            assertEquals("via-float", d.get("faults").get(0).get("fault").asText(), c);
                        }
                    }
                })));
    }
}
