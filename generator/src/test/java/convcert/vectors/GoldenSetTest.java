package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.common.Progress;
import convcert.oracle.Expected;
import convcert.oracle.HifloatPseudoCode;
import convcert.oracle.RationalOracle;
import convcert.reference.Reference;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed golden set (vectors/): it is what the generator makes today (the drift gate), and
 * every vector in it agrees with the independent oracles, not only with the reference that made it.
 */
class GoldenSetTest {

    static final Path VECTORS = TestProfile.home().resolve("vectors");

    @Test
    void committedSetMatchesAFreshGeneration(@TempDir Path fresh) throws IOException {
        Reference reference = TestProfile.reference();
        new Generator(new Generator.Options(reference, List.copyOf(reference.tables().conversions()), Level.CI, 1,
                Set.of(VectorFormat.values()), fresh), Progress.silent()).run();
        List<String> drift = DriftCheck.compare(reference.tables(), VECTORS, fresh, true);
        assertTrue(drift.isEmpty(), () -> "the golden set drifted; run ./convcert generate --update-golden and commit vectors/ with the"
                + " change:\n  " + String.join("\n  ", drift));
    }

    static long[] elements(Path file, int width) throws IOException {
        return VectorFiles.elements(Files.readAllBytes(file), width);
    }

    @TestFactory
    Stream<DynamicTest> everyCommittedVectorAgreesWithTheOracles() throws IOException {
        Manifest manifest = Manifest.readIn(VECTORS);
        var tables = TestProfile.tables();
        return manifest.cases().stream().map(e -> DynamicTest.dynamicTest(e.name(), () -> {
            int inWidth = tables.findFormat(e.from()).width();
            int outWidth = tables.findFormat(e.to()).width();
            long[] inputs = elements(VECTORS.resolve(e.files().get(".in.bin").path()), inWidth);
            long[] expected = elements(VECTORS.resolve(e.files().get(".expected.bin").path()), outWidth);
            assertTrue(inputs.length == e.count() && expected.length == e.count(), e.name() + ": counts");
            Rounding mode = Rounding.parse(e.rounding());
            Saturation saturation = Saturation.parse(e.saturation());
            boolean ctrl50 = e.ctrl().get("50") == 1;
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < inputs.length && wrong.size() < 5; i++) {
                Expected oracle;
                if (mode == Rounding.RH || (mode == Rounding.RNA && e.to().equals("hifloat8"))) {
                    boolean sat = saturation == Saturation.SAT;
                    boolean hybrid = mode == Rounding.RH;
                    oracle = Expected.bits(e.from().equals("float")
                            ? HifloatPseudoCode.fromFloat((int) inputs[i], hybrid, sat)
                            : HifloatPseudoCode.fromHalf((int) inputs[i], hybrid, sat));
                } else {
                    oracle = RationalOracle.convert(e.from(), e.to(), mode, saturation, ctrl50, inputs[i]);
                }
                if (!oracle.matches(e.to(), expected[i])) {
                    wrong.add("row " + (i + 1) + ": input 0x" + Long.toHexString(inputs[i]) + " golden 0x"
                            + Long.toHexString(expected[i]) + ", oracle " + oracle);
                }
            }
            assertTrue(wrong.isEmpty(), () -> e.name() + ":\n" + String.join("\n", wrong));
        }));
    }
}
