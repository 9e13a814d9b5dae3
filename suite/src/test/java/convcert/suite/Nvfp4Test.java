package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NVFP4 through the suite: suite/devices/nvfp4-python (numpy binary32, written from the recipes'
 * sources) speaks the BLOCKS batch with the tensor's largest magnitude before every block. Its
 * TransformerEngine recipe passes under the cuda profile's defaults; its torchao recipe fails there and
 * passes under the decisions that describe torchao; a failure names the recipe's steps.
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
        assertEquals(0, MainTest.run("", "generate", "--profile", "cuda", "--format", "bin", "--out",
                vectors.toString()).exit());
    }

    @Test
    void transformerEnginesRecipePassesUnderTheDefaults() throws Exception {
        MainTest.Run r = CertifyTest.certify(shared.resolve("te"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*", "--adapter", DEVICE);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = CertifyTest.report(shared.resolve("te"));
        assertEquals("PASS", CertifyTest.find(report, "float->nvfp4/rn-block").get("status").asText());
        assertEquals("PASS", CertifyTest.find(report, "nvfp4->float/rn-block").get("status").asText());
    }

    @Test
    void torchaosRecipeFailsUnderTheDefaultsAndPassesUnderItsDecisions() throws Exception {
        String torchao = DEVICE + " --recipe torchao";
        MainTest.Run r = CertifyTest.certify(shared.resolve("torchao"), "--profile", "cuda", "--vectors",
                vectors.toString(), "--only", "*nvfp4*", "--adapter", torchao);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode quantize = CertifyTest.find(CertifyTest.report(shared.resolve("torchao")), "float->nvfp4/rn-block");
        assertEquals("FAIL", quantize.get("status").asText());
        String rules = quantize.get("rules").toString();
        assertTrue(rules.contains("tensor-scale-arithmetic=reciprocal") && rules.contains("block scale S"), rules);
        r = CertifyTest.certify(shared.resolve("torchao-decided"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "*nvfp4*", "--decision", "tensor-scale-arithmetic=divide", "--decision",
                "block-scale-minimum=smallest-normal", "--decision", "block-scale-sign=signed", "--adapter", torchao);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("2 cases"), r.out());
    }

    @Test
    void eachOfTorchaosDecisionsIsNeeded() {
        // with one of the three left at its default the torchao recipe still fails: each is reached
        String torchao = DEVICE + " --recipe torchao";
        String[] decisions = {"tensor-scale-arithmetic=divide", "block-scale-minimum=smallest-normal",
            "block-scale-sign=signed"};
        for (int left = 0; left < decisions.length; left++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--profile", "cuda", "--vectors",
                    vectors.toString(), "--only", "*nvfp4*", "--adapter", torchao));
            for (int i = 0; i < decisions.length; i++) {
                if (i != left) {
                    args.add("--decision");
                    args.add(decisions[i]);
                }
            }
            MainTest.Run r = CertifyTest.certify(shared.resolve("without-" + left), args.toArray(String[]::new));
            assertEquals(1, r.exit(), "without " + decisions[left] + ": " + r.out());
        }
    }
}
