package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.Expected;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.RationalOracle;
import convcert.oracle.Value;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The cuda profile's 64-bit sources (__double2float_*, __double2half, __double2bfloat16,
 * __nv_cvt_double_to_fp8/fp6/fp4/e8m0, __double2int_* and the others) against oracles that never go
 * through float: exact rationals (RationalOracle), and the OCP MX value search and E8M0 rules of
 * OcpMxOracleTest. The inputs lie beside every destination value and midpoint, some closer than half a
 * float ulp: there a conversion through float32 rounds twice and differs.
 */
class DoubleSourceOracleTest {

    static final Reference CUDA = TestProfile.reference("cuda");
    static final long SEED = 20261201L;

    @TestFactory
    Stream<DynamicTest> everyDoubleSourceCaseRoundsOnce() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Conversion c : CUDA.tables().conversions()) {
            if (!c.from().name().equals("double")) {
                continue;
            }
            long[] inputs = inputs(c.to().name());
            for (Rounding mode : c.modes().stream().sorted().toList()) {
                for (Case state : CUDA.saturationStates(c, mode)) {
                    tests.add(DynamicTest.dynamicTest(c.pairName() + " " + mode.suffix() + " " + state.stateLabel()
                            + " [" + inputs.length + " inputs, seed " + SEED + "]", () -> {
                        List<String> wrong = mismatches(CUDA.converter(state)::apply, state, inputs);
                        assertTrue(wrong.isEmpty(), () -> state.describe() + ":\n" + String.join("\n", wrong));
                    }));
                }
            }
        }
        assertTrue(tests.size() >= 30, "the cuda profile's double sources: " + tests.size() + " cases");
        return tests.stream();
    }

    /** The inputs aim at double rounding: a converter that goes through float first fails on them. */
    @Test
    void roundingThroughFloatFirstIsCaught() {
        for (String to : List.of("half", "bfloat16", "fp8_e4m3fn", "fp8_e5m2", "fp4_e2m1", "e8m0")) {
            String mode = to.equals("e8m0") ? "ru" : "rn";
            String form = to.endsWith("half") || to.equals("bfloat16") ? "nosat" : "sat";
            Case state = CUDA.resolve("double", to, mode, form, CUDA.ctrl(""));
            Converter second = CUDA.converter(CUDA.resolve("float", to, mode, form, CUDA.ctrl("")));
            List<String> wrong = mismatches(x -> second.apply(Float.floatToRawIntBits(
                    (float) Double.longBitsToDouble(x)) & 0xFFFFFFFFL), state, inputs(to));
            assertTrue(wrong.size() >= 4, to + ": through float differs on " + wrong.size() + " inputs");
        }
    }

    interface Implementation {
        long apply(long bits);
    }

    private static List<String> mismatches(Implementation implementation, Case state, long[] inputs) {
        List<String> wrong = new ArrayList<>();
        for (long x : inputs) {
            long actual = implementation.apply(x);
            Expected want = expected(state, x);
            if (!want.matches(state.conversion().to().name(), actual) && wrong.size() < 8) {
                wrong.add(String.format("0x%016X (%s): oracle %s, got 0x%X", x, Double.longBitsToDouble(x), want, actual));
            }
        }
        return wrong;
    }

    /** What CUDA's documentation gives for one double. */
    static Expected expected(Case state, long bits) {
        String to = state.conversion().to().name();
        double x = Double.longBitsToDouble(bits);
        String mode = state.rounding().suffix();
        for (OcpMxOracleTest.Element el : OcpMxOracleTest.ELEMENTS) {
            if (el.name().equals(to)) {
                return Expected.bits(OcpMxOracleTest.oracle(el, x, mode.equals("rn")));
            }
        }
        if (to.equals("ue5m3")) {
            return Expected.bits(UnsignedFloatOracleTest.expected(UnsignedFloatOracleTest.UE5M3, IndependentDecoder.decode("double", bits), "zero"));
        }
        if (to.equals("e8m0")) {
            if (mode.equals("rz") && Math.abs(x) >= 0x1p128 && !Double.isInfinite(x)) {
                // cuda_fp8.hpp converts the double to float with round-to-odd first, which gives FLT_MAX here, so
                // toward zero it is 2^127 (0xFE) even under __NV_NOSAT, where the doc comment would say NaN (0xFF):
                // directed-overflow=largest-finite, decisions.csv
                return Expected.bits(0xFE);
            }
            return Expected.bits(OcpMxOracleTest.e8m0(x, mode, state.saturation() == Saturation.SAT));
        }
        if (Double.isNaN(x)) {
            // decisions.csv: NaN stays a NaN, under __NV_SATFINITE too (satfinite-nan); to an integer it gives the
            // pattern of the signed minimum, 0x80000000 or 0x8000000000000000, signed or not (nan-to-int64 and
            // nan-to-int32-from-double: measured on an H200; from float the 32-bit ones give 0)
            return IndependentDecoder.isInteger(to) ? Expected.bits(to.endsWith("64") ? Long.MIN_VALUE : 0x80000000L)
                    : Expected.nan(null);
        }
        Expected exact = RationalOracle.convert("double", to, state.rounding(), state.saturation(), false, bits);
        return exact.anyNaN() ? Expected.nan(null) : exact; // nan-encoding canonical: E4M3 overflow is 0x7F, signless
    }

    /**
     * Doubles beside the destination's values and midpoints: each point, one double ulp either side, and
     * 2^-27 of it either side (within half a float ulp: a float holds the point, so rounding through float
     * lands on it), both signs; plus seeded structured doubles and the specials.
     */
    static long[] inputs(String to) {
        TreeSet<Double> values = new TreeSet<>(destinationValues(to));
        double top = values.last();
        double below = values.lower(top);
        values.add(2 * top - below); // where the grid would continue: the overflow threshold lies halfway
        List<Double> points = new ArrayList<>(values);
        Double previous = null;
        for (double v : values) {
            if (previous != null) {
                points.add((previous + v) / 2); // exact: the values have far fewer than 52 significant bits
            }
            previous = v;
        }
        List<Long> inputs = new ArrayList<>();
        for (double p : points) {
            for (double q : new double[] {p, Math.nextUp(p), Math.nextDown(p), p * (1 + 0x1p-27), p * (1 - 0x1p-27)}) {
                inputs.add(Double.doubleToRawLongBits(q));
                inputs.add(Double.doubleToRawLongBits(-q));
            }
        }
        for (double s : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE,
            Double.MIN_NORMAL, 0x1p-127, 0x1p-128, 0x1p127, 0x1.8p127, 0x1p128}) {
            inputs.add(Double.doubleToRawLongBits(s));
            inputs.add(Double.doubleToRawLongBits(-s));
        }
        inputs.add(0xFFF8000000000001L); // a negative NaN with a payload
        Sweeps.seeded(SEED ^ to.hashCode(), 64, 4000, true, inputs::add);
        return inputs.stream().mapToLong(Long::longValue).toArray();
    }

    /** The destination's non-negative values, from the oracles' own decoders (never FormatCodec). */
    private static List<Double> destinationValues(String to) {
        List<Double> values = new ArrayList<>();
        for (OcpMxOracleTest.Element el : OcpMxOracleTest.ELEMENTS) {
            if (el.name().equals(to)) {
                for (int code = 0; code <= el.maxCode(); code++) {
                    values.add(el.value(code).doubleValue());
                }
                return values;
            }
        }
        switch (to) {
            case "e8m0" -> {
                for (int e = -127; e <= 127; e++) {
                    values.add(Math.scalb(1.0, e));
                }
            }
            case "float" -> {
                SplittableRandom random = new SplittableRandom(SEED);
                for (int i = 0; i < 3000; i++) {
                    float f = Float.intBitsToFloat(random.nextInt(0x7F800000));
                    values.add((double) f);
                    values.add((double) Math.nextUp(f));
                }
                for (float f : new float[] {0, Float.MIN_VALUE, Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL), 1,
                    Math.nextDown(Float.MAX_VALUE), Float.MAX_VALUE}) {
                    values.add((double) f);
                }
            }
            case "int32", "uint32", "int64", "uint64" -> {
                for (int k = 0; k <= 8; k++) {
                    values.add((double) k);
                }
                for (int bits : new int[] {31, 32, 63, 64}) {
                    double edge = Math.scalb(1.0, bits);
                    for (double v : new double[] {edge, Math.nextDown(edge), Math.nextUp(edge), edge - 1, edge - 2}) {
                        values.add(v);
                    }
                }
            }
            default -> {
                int width = IndependentDecoder.width(to);
                long codes = to.equals("ue5m3") ? 1L << width : 1L << (width - 1); // unsigned: every code
                for (long code = 0; code < codes; code++) {
                    Value v = IndependentDecoder.decode(to, code);
                    if (v.kind() == Value.Kind.FINITE || v.kind() == Value.Kind.ZERO) {
                        values.add(v.magnitude().doubleValue());
                    }
                }
            }
        }
        return values;
    }
}
