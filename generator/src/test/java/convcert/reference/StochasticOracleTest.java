package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The cuda profile's stochastic rounding (PTX cvt.rs) against an oracle written from the PTX text
 * and the P3109 draft's definitions in exact arithmetic, never through the reference: the float's
 * exact value, its two neighbours on the destination's grid (decoded here from the formats' fields),
 * f the fraction of the gap below it, and "the carry out of adding the N random bits R to the
 * discarded bits": up iff floor(f 2^N) + R >= 2^N (StochasticA); B and C by their definitions. The
 * random bits sit at every carry boundary of each input (2^N - floor(f 2^N) and one less), at zero,
 * at all ones, and at random.
 */
class StochasticOracleTest {

    static final Reference CUDA = TestProfile.reference("cuda");
    static final long SEED = 20261201L;

    /**
     * A destination's fields: exponent bits, mantissa bits, bias; ieeeTop: its top exponent is Inf/NaN;
     * nanCode: only its all-ones code is NaN (E4M3FN).
     */
    record Grid(int e, int m, int bias, boolean ieeeTop, boolean nanCode) {

        Grid(int e, int m, int bias, boolean ieeeTop) {
            this(e, m, bias, ieeeTop, false);
        }

        /** The non-negative finite values, in code order (which is value order). */
        List<BigDecimal> values() {
            List<BigDecimal> values = new ArrayList<>();
            int top = (1 << e) - (ieeeTop ? 1 : 0);
            for (int field = 0; field < top; field++) {
                for (int mant = 0; mant < 1 << m; mant++) {
                    if (nanCode && field == top - 1 && mant == (1 << m) - 1) {
                        continue;
                    }
                    BigInteger significand = BigInteger.valueOf(field == 0 ? mant : (1L << m) + mant);
                    int exponent = (field == 0 ? 1 : field) - bias - m;
                    values.add(scaled(new BigDecimal(significand), exponent));
                }
            }
            return values;
        }
    }

    static final Map<String, Grid> GRIDS = Map.of("half", new Grid(5, 10, 15, true), "bfloat16", new Grid(8, 7, 127, true),
            "fp6_e2m3", new Grid(2, 3, 1, false), "fp6_e3m2", new Grid(3, 2, 3, false), "fp4_e2m1", new Grid(2, 1, 1, false),
            "fp8_e4m3fn", new Grid(4, 3, 7, false, true), "fp8_e5m2", new Grid(5, 2, 15, true));

    static BigDecimal scaled(BigDecimal x, int exponent) {
        BigDecimal two = BigDecimal.valueOf(2);
        return exponent >= 0 ? x.multiply(two.pow(exponent)) : x.divide(two.pow(-exponent));
    }

    @TestFactory
    Stream<DynamicTest> everyStochasticCaseCarriesAsPtxSays() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String reading : List.of("stochastic-a", "stochastic-b", "stochastic-c")) {
            Reference reference = new Reference(CUDA.tables(), Semantics.of(CUDA.tables(), Map.of("stochastic-rounding", reading)));
            for (Conversion c : CUDA.tables().conversions()) {
                if (!c.modes().contains(Rounding.RS)) {
                    continue;
                }
                for (Case state : reference.saturationStates(c, Rounding.RS)) {
                    tests.add(DynamicTest.dynamicTest(c.pairName() + " rs " + state.stateLabel() + " " + reading, () -> {
                        List<String> wrong = mismatches(reference.converter(state), state, reading);
                        assertTrue(wrong.isEmpty(), () -> state.describe() + " " + reading + ":\n" + String.join("\n", wrong));
                    }));
                }
            }
        }
        assertEquals(21, tests.size(), "cvt.rs: f16x2, bf16x2, e4m3x4, e5m2x4, e2m3x4, e3m2x4, e2m1x4, under each reading");
        return tests.stream();
    }

    /** Random bits must change some results and never an exact one; the reference must not ignore them. */
    @Test
    void randomBitsDecideAndExactValuesNeverMove() {
        Case c = CUDA.resolve("float", "half", "rs", "nosat", CUDA.tables().powerOnCtrl());
        Converter converter = CUDA.converter(c);
        assertEquals(13, converter.operands().randomBits());
        long x = 0x3F800001L; // 1 + 2^-23: one discarded unit of 2^13
        assertEquals(0x3C00, converter.apply(converter.operands().operand(x, 0x1FFE)));
        assertEquals(0x3C01, converter.apply(converter.operands().operand(x, 0x1FFF)));
        assertEquals(0x3C00, converter.apply(converter.operands().operand(0x3F800000L, 0x1FFF)), "1.0 is exact in half");
        assertEquals(0x7C00, converter.apply(converter.operands().operand(0x477FF001L, 0x1FFF)), "65504 + a bit carries to +inf");
        assertEquals(0x7BFF, converter.apply(converter.operands().operand(0x477FFFFFL, 0)), "below 65536 truncates to 65504");
    }

    private static List<String> mismatches(Converter converter, Case state, String reading) {
        Conversion c = state.conversion();
        int n = c.randomBits();
        Grid grid = GRIDS.get(c.to().name());
        List<BigDecimal> values = grid.values();
        BigDecimal max = values.get(values.size() - 1);
        BigDecimal topGap = max.subtract(values.get(values.size() - 2));
        boolean sat = state.saturation() == Saturation.SAT;
        int signBit = 1 << (grid.e + grid.m);
        SplittableRandom random = new SplittableRandom(SEED ^ c.to().name().hashCode());
        List<String> wrong = new ArrayList<>();
        List<Float> inputs = new ArrayList<>();
        for (BigDecimal v : values) { // each grid value, beside it, and inside each gap
            float f = v.floatValue();
            inputs.add(f);
            inputs.add(Math.nextUp(f));
            inputs.add(Math.nextDown(f));
        }
        for (int i = 0; i < 20_000; i++) { // magnitudes from far below the smallest subnormal to beyond the largest
            double log = Math.log(values.get(1).doubleValue() / 8) / Math.log(2);
            double span = Math.log(max.doubleValue() * 4) / Math.log(2) - log;
            inputs.add((float) Math.pow(2, log + span * random.nextDouble()));
        }
        for (float magnitude : inputs) {
            if (!(magnitude > 0) || Float.isInfinite(magnitude)) {
                continue;
            }
            for (boolean negative : new boolean[] {false, true}) {
                long bits = Float.floatToRawIntBits(negative ? -magnitude : magnitude) & 0xFFFFFFFFL;
                BigDecimal a = new BigDecimal(magnitude);
                int below = lastAtMost(values, a);
                BigDecimal low = values.get(below);
                BigDecimal gap = below + 1 < values.size() ? values.get(below + 1).subtract(low) : topGap;
                BigDecimal f = a.subtract(low).divide(gap); // exact: the gap is a power of two
                long floorN = scaled(f, n).setScale(0, RoundingMode.FLOOR).longValueExact();
                long full = 1L << n;
                List<Long> rs = new ArrayList<>(List.of(0L, full - 1, random.nextLong(full)));
                if (floorN > 0 && floorN < full) {
                    rs.add(full - floorN);
                    rs.add(full - floorN - 1);
                }
                for (long r : rs) {
                    boolean up = switch (reading) {
                        case "stochastic-a" -> floorN + r >= full;
                        case "stochastic-b" -> scaled(f, n + 1).setScale(0, RoundingMode.FLOOR).longValueExact() + 2 * r + 1
                                >= 2 * full;
                        default -> scaled(f, n).setScale(0, RoundingMode.HALF_EVEN).longValueExact() + r >= full;
                    };
                    int index = below + (up ? 1 : 0);
                    long expected;
                    if (index >= values.size() || a.compareTo(max.add(topGap)) >= 0) { // beyond the largest finite value
                        expected = sat || !grid.ieeeTop ? values.size() - 1 : values.size(); // the largest value, or infinity
                    } else {
                        expected = index;
                    }
                    expected |= negative ? signBit : 0;
                    long actual = converter.apply(converter.operands().operand(bits, r));
                    if (actual != expected && wrong.size() < 20) {
                        wrong.add(String.format("0x%08X random 0x%X: expected 0x%X, got 0x%X", bits, r, expected, actual));
                    }
                }
            }
        }
        return wrong;
    }

    private static int lastAtMost(List<BigDecimal> values, BigDecimal a) {
        int lo = 0;
        int hi = values.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (values.get(mid).compareTo(a) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
