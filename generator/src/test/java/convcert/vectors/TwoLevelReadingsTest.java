package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.reference.BlockConverter;
import convcert.reference.Decoded;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The ci vectors of NVFP4 separate every recipe option: for each decision a two-level recipe reads
 * and each ordered pair of its options, the vectors generated under the first hold blocks whose
 * expected outputs (compared as the suite compares them) differ under the second, so a recording of
 * either option fails under the other. Each decision is also checked to reach the directions it
 * should: the block scale's sign only block -> values, the others values -> block.
 */
class TwoLevelReadingsTest {

    static final SpecTables CUDA = TestProfile.reference("cuda").tables();

    @TestFactory
    Stream<DynamicTest> eachOptionsVectorsFailUnderEveryOtherOption() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Semantics.Switch<?> decision : TwoLevelCoverage.DECISIONS) {
            for (String first : decision.optionNames()) {
                for (String second : decision.optionNames()) {
                    if (first.equals(second)) {
                        continue;
                    }
                    tests.add(DynamicTest.dynamicTest(decision.id() + ": " + first + " vectors under " + second, () -> {
                        Reference made = reference(decision.id(), first);
                        Reference judged = reference(decision.id(), second);
                        BlockFormat nvfp4 = CUDA.blocks().get("nvfp4");
                        List<String> separated = new ArrayList<>();
                        for (boolean toBlock : new boolean[] {true, false}) {
                            BlockCoverage coverage = new BlockCoverage(made, nvfp4, Level.CI, 1);
                            BlockCoverage.Blocks blocks = toBlock ? coverage.toBlock() : coverage.fromBlock();
                            BlockConverter expected = made.blockConverter(nvfp4, Rounding.RN, toBlock);
                            BlockConverter other = judged.blockConverter(nvfp4, Rounding.RN, toBlock);
                            int differing = differing(expected, other, blocks);
                            if (differing > 0) {
                                separated.add((toBlock ? "values -> block: " : "block -> values: ") + differing);
                            }
                        }
                        boolean signOnly = decision.id().equals("block-scale-sign");
                        assertTrue(separated.stream().anyMatch(s -> s.startsWith(signOnly ? "block" : "values")),
                                "no ci block tells " + first + " from " + second + ": " + separated);
                    }));
                }
            }
        }
        return tests.stream();
    }

    static Reference reference(String decision, String option) {
        return new Reference(CUDA, Semantics.of(CUDA, Map.of(decision, option)));
    }

    /** Blocks whose outputs under a and b differ where the suite compares them (a NaN matches any NaN). */
    static int differing(BlockConverter a, BlockConverter b, BlockCoverage.Blocks blocks) {
        int n = blocks.count();
        long[] x = new long[n * a.outputsPerBlock()];
        long[] y = new long[n * b.outputsPerBlock()];
        a.apply(blocks.values(), 0, x, 0, n);
        b.apply(blocks.values(), 0, y, 0, n);
        int differing = 0;
        for (int k = 0; k < n; k++) {
            int o = k * a.outputsPerBlock();
            for (int i = 0; i < a.outputsPerBlock(); i++) {
                boolean nan = a.outputCodec(i).decode(x[o + i]).kind() == Decoded.Kind.NAN
                        && a.outputCodec(i).decode(y[o + i]).kind() == Decoded.Kind.NAN;
                if (a.compared(x, o, i) && x[o + i] != y[o + i] && !nan) {
                    differing++;
                    break;
                }
            }
        }
        return differing;
    }
}
