package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.ArbitraryFpOracle;
import convcert.oracle.Expected;
import convcert.oracle.RationalOracle;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The llvm profile against oracles that do not read its tables: llvm.convert.to.arbitrary.fp by the LangRef's
 * sentences (ArbitraryFpOracle: round to the precision, then saturate or overflow to infinity, in every
 * direction), on every half and bfloat input and seeded float and double ones; llvm.convert.from.arbitrary.fp by
 * the exact-rational oracle (IEEE rounding to nearest even, which is exact but for E8M0 to half) on every code.
 */
class ArbitraryFpOracleTest {

    private static final Reference LLVM = TestProfile.reference("llvm");
    private static final int WIDE_COUNT = 8_192;

    @TestFactory
    Stream<DynamicTest> everyConversionOfTheProfileAgreesWithItsOracle() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Conversion c : LLVM.tables().conversions()) {
            for (Rounding mode : c.modes()) {
                for (Case state : LLVM.saturationStates(c, mode)) {
                    tests.add(DynamicTest.dynamicTest(c.pairName() + " " + mode.suffix() + " " + state.stateLabel(),
                            () -> check(LLVM.converter(state))));
                }
            }
        }
        assertEquals(244, tests.size(), "the profile's (pair, mode, form) combinations");
        return tests.stream();
    }

    private static void check(Converter converter) {
        Case c = converter.spec();
        String from = c.conversion().from().name();
        String to = c.conversion().to().name();
        boolean narrowing = c.conversion().from().width() > c.conversion().to().width();
        boolean saturate = c.saturation() == Saturation.SAT;
        LongFunction<Expected> oracle = narrowing
                ? bits -> ArbitraryFpOracle.convert(from, to, c.rounding(), saturate, bits)
                : bits -> RationalOracle.convert(from, to, Rounding.RN, Saturation.NOSAT, false, bits);
        List<String> mismatches = new ArrayList<>();
        long[] count = {0};
        int width = c.conversion().from().width();
        LongConsumer judge = bits -> {
            count[0]++;
            Expected expected = oracle.apply(bits);
            long actual = converter.apply(bits);
            if (!expected.matches(to, actual) && mismatches.size() < 8) {
                mismatches.add(Values.describe(converter.source(), bits) + ": oracle " + expected + ", reference "
                        + Values.describe(converter.destination(), actual));
            }
        };
        if (width <= 16) {
            Sweeps.exhaustive(width, judge);
        } else {
            Sweeps.seeded(RationalOracleTest.SEED ^ c.conversion().pairName().hashCode(), width, WIDE_COUNT, true, judge);
        }
        assertTrue(mismatches.isEmpty(), () -> c.describe() + ": of " + count[0] + " inputs:\n" + String.join("\n", mismatches));
    }

    /** The reading the LangRef's "round, then saturate" gives and IEEE 754 7.4 does not: the oracle tells them apart. */
    @Test
    void aValueThatRoundsTowardZeroBeyondTheLargestIsInfinity() {
        long x256 = Float.floatToRawIntBits(256f);
        long x250 = Float.floatToRawIntBits(250f);
        assertEquals(0x78, ArbitraryFpOracle.convert("float", "fp8_e4m3", Rounding.RZ, false, x256).bits());
        assertEquals(0x77, ArbitraryFpOracle.convert("float", "fp8_e4m3", Rounding.RZ, false, x250).bits());
        assertEquals(0x7B, RationalOracle.convert("float", "fp8_e5m2", Rounding.RZ, Saturation.NOSAT, false,
                Float.floatToRawIntBits(1e6f)).bits(), "IEEE 7.4 under rz: the largest finite value");
    }
}
