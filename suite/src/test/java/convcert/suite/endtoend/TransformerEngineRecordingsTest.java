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
 * TransformerEngine's NVFP4 reference quantizer (reference_nvfp4.py, loaded unchanged by
 * suite/devices/pytorch/te4over6.py), recorded on a CPU and a GPU in its default recipe and in "Four Over Six"
 * with each error measure (reports/devices/pytorch): each passes under the recipe its certification found,
 * each of 4over6's decisions is needed, and the diagnosis finds the recipe from the defaults unaided. The same
 * quantizer with its random Hadamard transform (suite/devices/pytorch/te_rht.py) over the rotated tensor: with
 * its signs it passes under the defaults, without them the diagnosis names rotation-signs=none.
 */
class TransformerEngineRecordingsTest {

    static final Path PYTORCH = Fixtures.HOME.resolve("reports/devices/pytorch");
    /** What the PyTorch reference does where TE's kernels differ: G at A = 0, and a -0 element. */
    static final List<String> REFERENCE = List.of("zero-amax=largest-finite", "element-zero-sign=positive");

    @TempDir
    Path temp;

    static List<String> recipe(String name) {
        List<String> decisions = new ArrayList<>(REFERENCE);
        if (name.startsWith("4over6")) {
            decisions.add("block-scale-choice=four-over-six-" + name.substring("4over6-".length()));
            decisions.add("tensor-scale-maximum=scale-256");
            decisions.add("tensor-scale-arithmetic=reciprocal-divide-first");
        }
        return decisions;
    }

    private Fixtures.Run certify(String out, String recording, List<String> decisions) {
        List<String> args = new ArrayList<>(List.of("--profile", "cuda", "--level", "ci", "--only", "float->nvfp4/*",
                "--adapter", "replay:dir=" + PYTORCH.resolve("recording-te-ref-" + recording)));
        decisions.forEach(d -> args.addAll(List.of("--decision", d)));
        return Fixtures.certify(temp.resolve(out), args.toArray(String[]::new));
    }

    @TestFactory
    Stream<DynamicTest> eachRecipePassesUnderItsDecisionsOnBothDevices() {
        return Stream.of("default", "4over6-mae", "4over6-mse").flatMap(name -> Stream.of("cpu", "cuda").map(device ->
                DynamicTest.dynamicTest(name + " " + device, () -> {
                    Fixtures.Run r = certify(name + "-" + device, name + "-" + device, recipe(name));
                    assertEquals(0, r.exit(), r.out() + r.err());
                    assertTrue(r.out().contains("PASS: 1 cases, 476 vectors"), r.out());
                })));
    }

    @Test
    void theErrorMeasureAndTheTensorScaleMaximumAreEachNeeded() throws Exception {
        List<String> mse = recipe("4over6-mse");
        Fixtures.Run r = certify("mae-as-mse", "4over6-mae-cpu", mse);
        assertEquals(1, r.exit(), r.out());
        assertEquals("block-scale-choice=four-over-six-mae", Nvfp4Test.recipe(Fixtures.find(Fixtures.report(
                temp.resolve("mae-as-mse")), "float->nvfp4/rn-block")));
        List<String> full = new ArrayList<>(recipe("4over6-mae"));
        full.remove("tensor-scale-maximum=scale-256");
        assertEquals(1, certify("mae-448", "4over6-mae-cpu", full).exit());
    }

    @TestFactory
    Stream<DynamicTest> theHadamardTransformPassesWithItsSignsOrAsTheDiagnosisReadsThem() {
        return Stream.of("cpu", "cuda").map(device -> DynamicTest.dynamicTest(device, () -> {
            for (String mask : List.of("signs", "no-signs")) {
                String out = "rht-" + mask + "-" + device;
                List<String> args = List.of("--profile", "cuda", "--level", "ci", "--only", "float->*rht/*",
                        "--adapter", "replay:dir=" + PYTORCH.resolve("recording-te-rht-" + mask + "-" + device));
                Fixtures.Run r = Fixtures.certify(temp.resolve(out), args.toArray(String[]::new));
                assertEquals(mask.equals("signs") ? 0 : 1, r.exit(), r.out() + r.err());
                if (mask.equals("no-signs")) {
                    assertEquals("rotation-signs=none", Nvfp4Test.recipe(Fixtures.find(Fixtures.report(temp.resolve(out)),
                            "float->nvfp4_t64x24_col_rht/rn-tensor")));
                    List<String> decided = new ArrayList<>(args);
                    decided.addAll(List.of("--decision", "rotation-signs=none"));
                    r = Fixtures.certify(temp.resolve(out + "-decided"), decided.toArray(String[]::new));
                    assertEquals(0, r.exit(), r.out() + r.err());
                }
                assertTrue(r.out().contains("PASS: 1 cases, 4 vectors"), r.out());
            }
        }));
    }

    @Test
    void theDiagnosisFindsFourOverSixFromTheDefaults() throws Exception {
        Fixtures.Run r = certify("found", "4over6-mae-cuda", List.of());
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(temp.resolve("found")), "float->nvfp4/rn-block");
        assertEquals("block-scale-choice=four-over-six-mae tensor-scale-maximum=scale-256 zero-amax=largest-finite"
                + " element-zero-sign=positive", Nvfp4Test.recipe(c));
    }
}
