package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NVFP4 quantized with stochastic rounding and explicit random bits (cuda's rs blocks and tensors): the numpy
 * device rounds each element from PTX's cvt.rs wording on the float's bits, with the byte the case gives it,
 * and passes; told to give each four elements their bytes last to first, it fails, and the diagnosis names
 * the catalogue's random-reversed alone. The quick set: a block diagnosis tries every reading of a dozen decisions.
 */
class StochasticQuantizerTest {

    @TempDir
    static Path shared;

    static Path vectors;

    @BeforeAll
    static void generate() {
        vectors = shared.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "cuda", "--level", "quick", "--format", "bin", "--out",
                vectors.toString()).exit());
    }

    @Test
    void aQuantizerThatRoundsWithTheGivenBitsPasses() throws Exception {
        Fixtures.Run r = Fixtures.certify(shared.resolve("right"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "float->nvfp4*/rs-*", "--adapter", Nvfp4Test.DEVICE);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(shared.resolve("right"));
        for (String c : new String[] {"float->nvfp4/rs-block", "float->nvfp4_t5x40/rs-tensor", "float->nvfp4_t130x64_sw/rs-tensor"}) {
            assertEquals("PASS", Fixtures.find(report, c).get("status").asText(), c);
        }
    }

    @Test
    void bitsGivenToTheWrongElementsAreDiagnosed() throws Exception {
        Fixtures.Run r = Fixtures.certify(shared.resolve("reversed"), "--profile", "cuda", "--vectors", vectors.toString(),
                "--only", "float->nvfp4/rs-block", "--adapter", Nvfp4Test.DEVICE + " --random-order reversed");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(shared.resolve("reversed")), "float->nvfp4/rs-block");
        assertEquals("FAIL", c.get("status").asText());
        String rules = c.get("rules").toString();
        assertTrue(rules.contains("own 8 random bits") && rules.contains("stochastic-rounding=stochastic-a"), rules);
        assertEquals("random-reversed", Nvfp4Test.recipe(c));
    }
}
