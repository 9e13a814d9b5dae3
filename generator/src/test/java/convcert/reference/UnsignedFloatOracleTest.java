package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.Value;
import convcert.spec.Conversion;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * NVIDIA's UE5M3 (the cuda profile's ue5m3, layout ieee-fnu) against exact arithmetic written from its
 * definition (IndependentDecoder), not from formats.csv: no sign, 5 exponent bits biased by 15, 3 mantissa bits, subnormals
 * at exponent field 0, 0xFF the only NaN, no infinity (PTX ISA alternate floating-point formats, as
 * LLVM's APFloat table of PR 210720 restates it). Conversions into it are __NV_SATFINITE and
 * cudaRoundNearest (the CUDA 13.4 constructors): the nearest value, ties to the even code, beyond
 * 114688 (infinity included) 114688, NaN 0xFF; a negative value by decision fnu-negative, every option.
 */
class UnsignedFloatOracleTest {

    static final String CUDA = "cuda";
    static final long SEED = 20261204L;
    static final int NAN = 0xFF;
    static final int MAX = 0xFE;

    /** The value of a finite code (IndependentDecoder's, from the definition above). */
    static BigDecimal value(int code) {
        return IndependentDecoder.decode("ue5m3", code).magnitude();
    }

    /** What a value gives, by the definition above and the negative rule. */
    static long expected(Value v, String negative) {
        if (v.kind() == Value.Kind.NAN) {
            return NAN;
        }
        if (v.negative() && v.kind() != Value.Kind.ZERO) {
            switch (negative) {
                case "zero" -> {
                    return 0;
                }
                case "nan" -> {
                    return NAN;
                }
                default -> { // absolute: the magnitude below
                }
            }
        }
        if (v.kind() == Value.Kind.INFINITE) {
            return MAX;
        }
        BigDecimal a = v.magnitude();
        if (a.compareTo(value(MAX)) >= 0) {
            return MAX;
        }
        int low = 0;
        while (value(low + 1).compareTo(a) <= 0) {
            low++;
        }
        if (value(low).compareTo(a) == 0) {
            return low;
        }
        int nearer = a.subtract(value(low)).compareTo(value(low + 1).subtract(a));
        return nearer < 0 || nearer == 0 && (low & 1) == 0 ? low : low + 1;
    }

    @Test
    void everyCodeDecodesToItsValue() {
        Converter toFloat = TestProfile.reference(CUDA).converter(
                TestProfile.reference(CUDA).resolve("ue5m3", "float", "rn", "nosat", TestProfile.reference(CUDA).ctrl("")));
        for (int code = 0; code < 256; code++) {
            long bits = toFloat.apply(code);
            Value got = IndependentDecoder.decode("float", bits);
            if (code == NAN) {
                assertEquals(Value.Kind.NAN, IndependentDecoder.decode("ue5m3", code).kind(), "0xFF decodes to NaN");
                assertEquals(Value.Kind.NAN, got.kind(), "0xFF");
            } else {
                assertEquals(0, value(code).compareTo(got.signed()), String.format("0x%02X -> 0x%08X", code, bits));
            }
        }
        assertEquals(0, value(MAX).compareTo(BigDecimal.valueOf(114688)), "the largest value");
        assertEquals(0, value(1).compareTo(IndependentDecoder.pow2(BigInteger.ONE, -17)), "the smallest subnormal");
    }

    @TestFactory
    Stream<DynamicTest> everySourceRoundsToTheNearestValue() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String negative : List.of("zero", "nan", "absolute")) {
            Reference reference = new Reference(TestProfile.reference(CUDA).tables(),
                    Semantics.of(TestProfile.reference(CUDA).tables(), Map.of("fnu-negative", negative)));
            for (Conversion c : reference.tables().conversions()) {
                if (!c.to().name().equals("ue5m3")) {
                    continue;
                }
                String from = c.from().name();
                long[] inputs = inputs(from);
                tests.add(DynamicTest.dynamicTest(from + "->ue5m3 rn sat, fnu-negative=" + negative + " [" + inputs.length
                        + " inputs]", () -> {
                    Converter converter = reference.converter(reference.resolve(from, "ue5m3", "rn", "sat", reference.ctrl("")));
                    List<String> wrong = new ArrayList<>();
                    for (long x : inputs) {
                        long want = expected(IndependentDecoder.decode(from, x), negative);
                        long got = converter.apply(x);
                        if (got != want && wrong.size() < 8) {
                            wrong.add(String.format("0x%X: oracle 0x%02X, reference 0x%02X", x, want, got));
                        }
                    }
                    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
                }));
            }
        }
        assertEquals(12, tests.size(), "float, double, half and bfloat16 to ue5m3, three readings each");
        return tests.stream();
    }

    @Test
    void theNegativeReadingsDiffer() {
        Value minusOne = IndependentDecoder.decode("float", 0xBF800000L);
        assertEquals(0x00, expected(minusOne, "zero"));
        assertEquals(0xFF, expected(minusOne, "nan"));
        assertEquals(0x78, expected(minusOne, "absolute"));
    }

    /**
     * Every half and bfloat16; for float and double, each UE5M3 value and midpoint, one ulp either side,
     * both signs, the specials, and seeded patterns.
     */
    static long[] inputs(String from) {
        List<Long> inputs = new ArrayList<>();
        if (from.equals("half") || from.equals("bfloat16")) {
            for (long x = 0; x < 0x10000; x++) {
                inputs.add(x);
            }
            return inputs.stream().mapToLong(Long::longValue).toArray();
        }
        boolean isFloat = from.equals("float");
        List<Double> points = new ArrayList<>();
        for (int code = 0; code < MAX; code++) {
            points.add(value(code).doubleValue());
            points.add(value(code).add(value(code + 1)).doubleValue() / 2); // exact in float and double
        }
        points.add(value(MAX).doubleValue());
        points.add(122880.0); // where the grid would continue halfway: the overflow threshold of rn without saturation
        for (double p : points) {
            for (int sign : new int[] {1, -1}) {
                double q = sign * p;
                if (isFloat) {
                    for (float f : new float[] {(float) q, Math.nextUp((float) q), Math.nextDown((float) q)}) {
                        inputs.add(Float.floatToRawIntBits(f) & 0xFFFFFFFFL);
                    }
                } else {
                    for (double d : new double[] {q, Math.nextUp(q), Math.nextDown(q)}) {
                        inputs.add(Double.doubleToRawLongBits(d));
                    }
                }
            }
        }
        for (double s : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1e30}) {
            inputs.add(isFloat ? Float.floatToRawIntBits((float) s) & 0xFFFFFFFFL : Double.doubleToRawLongBits(s));
        }
        Sweeps.seeded(SEED ^ from.hashCode(), isFloat ? 32 : 64, 20000, true, inputs::add);
        return inputs.stream().mapToLong(Long::longValue).toArray();
    }
}
