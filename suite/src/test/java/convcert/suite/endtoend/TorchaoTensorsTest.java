package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * torchao 0.19's own whole-tensor quantizers, recorded on CPUs and an H200 (reports/devices/pytorch/torchao-tensors,
 * suite/devices/pytorch/tensors.py): each MX scale mode passes under the mx-scale reading of the same name,
 * eager and compiled by Inductor, and certification under the defaults finds it; EVEN fails only where
 * its rounded maximum overflows binary32; the NVFP4 quantizer's recipe is found from tensors alone, and
 * its compiled GPU kernel rounds elements otherwise.
 */
class TorchaoTensorsTest {

    static final Path RECORDINGS = Fixtures.HOME.resolve("reports/devices/pytorch/torchao-tensors");

    static final List<String> RUNS = List.of("cpu", "cpu-compiled", "cuda", "cuda-compiled");

    @TempDir
    Path temp;

    private Fixtures.Run certify(String name, String profile, String recording, String... decisions) {
        List<String> args = new ArrayList<>(List.of("--profile", profile, "--level", "ci",
                "--adapter", "replay:dir=" + RECORDINGS.resolve(recording)));
        for (String d : decisions) {
            args.addAll(List.of("--decision", d));
        }
        return Fixtures.certify(temp.resolve(name), args.toArray(String[]::new));
    }

    @TestFactory
    Stream<DynamicTest> eachScaleModeIsTheReadingOfItsName() {
        return Stream.of("floor", "ceil", "rceil").flatMap(mode -> RUNS.stream().map(run ->
                DynamicTest.dynamicTest(mode + " " + run, () -> {
                    String recording = "torchao-mx-" + mode + "-" + run;
                    Fixtures.Run own = certify(recording, "ocp-mx", recording, "mx-scale=" + mode);
                    assertEquals(0, own.exit(), own.out() + own.err());
                    assertTrue(own.out().contains("PASS: 5 cases"), own.out());
                    if (!mode.equals("floor") && !run.endsWith("compiled")) { // the diagnosis names the mode
                        Fixtures.Run found = certify(recording + "-found", "ocp-mx", recording);
                        assertEquals(1, found.exit(), found.out() + found.err());
                        for (JsonNode c : Fixtures.report(temp.resolve(recording + "-found")).get("cases")) {
                            if (c.get("status").asText().equals("FAIL") && c.get("mismatches").asInt() > 1) {
                                assertTrue(Nvfp4Test.recipe(c).contains("mx-scale=" + mode), c.toString());
                            } else if (c.get("status").asText().equals("FAIL")) { // one block: it fits, too little to name
                                assertTrue(c.get("diagnosis").asText().matches(".*the one mismatch fits [^:]*mx-scale=" + mode
                                        + "[^:]*: too little to name a cause.*"), c.toString());
                            }
                        }
                    }
                })));
    }

    @TestFactory
    Stream<DynamicTest> evenGivesANanScaleWhereItsRoundedMaximumOverflowsBinary32() {
        return Stream.of("cpu", "cpu-compiled", "cuda").map(run -> DynamicTest.dynamicTest(run, () -> even(run)));
    }

    private void even(String run) throws Exception {
        // torchao's EVEN adds half an element ulp to the maximum's bits: from 0x7F7C0000 up (MXFP8; 0x7F600000
        // for MXFP4) that carries into the exponent of infinity, and isfinite(max_abs) then gives scale 0xFF:
        // a finite block made NaN (its MXFP4 elements come out as numbers, torchao's E2M1 cast of NaN)
        Fixtures.Run r = certify("even-" + run, "ocp-mx", "torchao-mx-even-" + run, "mx-scale=even");
        assertEquals(1, r.exit(), r.out() + r.err());
        int failing = 0;
        for (JsonNode c : Fixtures.report(temp.resolve("even-" + run)).get("cases")) {
            if (!c.get("status").asText().equals("FAIL")) {
                continue;
            }
            failing++;
            for (JsonNode block : c.get("firstMismatchData")) {
                JsonNode scale = block.get("wrong").get(0);
                assertTrue(scale.get("part").asText().startsWith("scale"), scale.toString());
                assertEquals("0xFF", scale.get("actual").get("bits").asText(), scale.toString());
                long largest = 0;
                for (JsonNode in : block.get("inputs")) {
                    largest = Math.max(largest, Long.decode(in.asText()) & 0x7FFFFFFFL);
                }
                assertTrue(largest >= 0x7F600000L && largest < 0x7F800000L, block.toString());
            }
        }
        assertEquals(4, failing, r.out());
    }

    @TestFactory
    Stream<DynamicTest> nvfp4TensorsGiveTorchaosRecipeEagerly() {
        return Stream.of("cpu", "cuda").map(device -> DynamicTest.dynamicTest(device, () -> {
            String recording = "torchao-nvfp4-" + device;
            Fixtures.Run found = certify(recording + "-found", "cuda", recording);
            assertEquals(1, found.exit(), found.out() + found.err());
            assertEquals("tensor-scale-arithmetic=divide-multiply tensor-amax-nan=propagate", Nvfp4Test.recipe(
                    Fixtures.find(Fixtures.report(temp.resolve(recording + "-found")), "float->nvfp4_t130x64_sw/rn-tensor")));
            Fixtures.Run own = certify(recording, "cuda", recording, "tensor-scale-arithmetic=divide-multiply",
                    "tensor-amax-nan=propagate");
            assertEquals(0, own.exit(), own.out() + own.err());
            Fixtures.Run divide = certify(recording + "-divide", "cuda", recording, "tensor-scale-arithmetic=divide",
                    "tensor-amax-nan=propagate");
            assertEquals(1, divide.exit(), divide.out() + divide.err());
        }));
    }

    @Test
    void compiledNvfp4OnTheGpuRoundsElementsOtherwiseThanEager() throws Exception {
        // torch.compile's Triton kernel: one tensor's elements one E2M1 step off, scales and A the same
        Fixtures.Run r = certify("compiled", "cuda", "torchao-nvfp4-cuda-compiled", "tensor-scale-arithmetic=divide-multiply",
                "tensor-amax-nan=propagate");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(temp.resolve("compiled")), "float->nvfp4_t130x64_sw/rn-tensor");
        assertEquals(1, c.get("mismatches").asInt(), c.toString());
        assertEquals(1560, c.get("kinds").path("one step (rounding)").asInt() + c.get("kinds").path("subnormal vs zero (flush)").asInt());
    }

    @Test
    void dequantizationPassesUnderTheDecisionsOfItsQuantizers() {
        for (String device : List.of("cpu", "cuda")) {
            Fixtures.Run mx = certify("dequant-mx-" + device, "ocp-mx", "torchao-dequant-" + device);
            assertEquals(0, mx.exit(), mx.out() + mx.err());
            assertTrue(mx.out().contains("PASS: 5 cases"), mx.out());
            // on CUDA PyTorch divides a tensor by a number as a product with its reciprocal (T = A x rn(1/2688))
            Fixtures.Run nvfp4 = certify("dequant-nvfp4-" + device, "cuda", "torchao-dequant-" + device,
                    "tensor-scale-arithmetic=" + (device.equals("cpu") ? "divide-multiply" : "divide-constant-reciprocal"),
                    "block-scale-sign=signed");
            assertEquals(0, nvfp4.exit(), nvfp4.out() + nvfp4.err());
        }
    }
}
