package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.Expected;
import convcert.oracle.RationalOracle;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every pair, rounding mode and saturation behaviour of the tables against the exact-rational oracle:
 * exhaustively for 8- and 16-bit sources, on seeded structured inputs for 32- and 64-bit ones.
 * Hybrid rounding has its own oracle (HifloatTest).
 */
class RationalOracleTest {

    static final long SEED = 20261129L;
    static final int WIDE_COUNT = 40_000;

    @TestFactory
    Stream<DynamicNode> everyPairModeAndSaturation() {
        Reference reference = TestProfile.reference();
        List<DynamicNode> pairs = new ArrayList<>();
        for (Conversion c : reference.tables().conversions()) {
            List<DynamicTest> tests = new ArrayList<>();
            for (Rounding mode : c.modes().stream().sorted().toList()) {
                if (mode == Rounding.RH) {
                    continue;
                }
                for (Case state : reference.saturationStates(c, mode)) {
                    String label = mode.suffix() + " " + state.stateLabel();
                    tests.add(DynamicTest.dynamicTest(label + " [seed " + SEED + "]",
                            () -> check(reference.converter(state))));
                }
            }
            pairs.add(DynamicContainer.dynamicContainer(c.pairName(), tests));
        }
        return pairs.stream();
    }

    static void sweep(Conversion c, LongConsumer sink) {
        int width = c.from().width();
        if (width <= 16) {
            Sweeps.exhaustive(width, sink);
        } else {
            Sweeps.seeded(SEED ^ c.pairName().hashCode(), width, WIDE_COUNT, !c.from().isInteger(), sink);
        }
    }

    private static void check(Converter converter) {
        Case c = converter.spec();
        String from = c.conversion().from().name();
        String to = c.conversion().to().name();
        boolean ctrl50 = c.ctrl().bit(50) == 1;
        List<String> mismatches = new ArrayList<>();
        long[] count = {0, 0};
        sweep(c.conversion(), bits -> {
            count[0]++;
            Expected expected = RationalOracle.convert(from, to, c.rounding(), c.saturation(), ctrl50, bits);
            long actual = converter.apply(bits);
            if (!expected.matches(to, actual)) {
                count[1]++;
                if (mismatches.size() < 8) {
                    mismatches.add(Values.describe(converter.source(), bits) + ": oracle " + expected + ", reference "
                            + Values.describe(converter.destination(), actual));
                }
            }
        });
        assertTrue(mismatches.isEmpty(), () -> c.describe() + ": " + count[1] + " of " + count[0]
                + " inputs differ from the rational oracle:\n" + String.join("\n", mismatches));
    }
}
