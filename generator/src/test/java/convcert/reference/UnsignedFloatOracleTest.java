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
 * NVIDIA's unsigned floats (the cuda profile's ieee-fnu formats) against exact arithmetic written from
 * their definitions (IndependentDecoder), not from formats.csv: no sign, 3 mantissa bits, subnormals at
 * exponent field 0, all ones the only NaN, no infinity. UE5M3: 5 exponent bits biased by 15 (PTX ISA
 * alternate floating-point formats, as LLVM's APFloat table of PR 210720 restates it); UE4M3: 4 biased
 * by 7 (CUTLASS float8.h float_ue4m3_t). Conversions into them saturate and round to nearest (the
 * CUDA 13.4 constructors, __NV_SATFINITE and cudaRoundNearest; CUTLASS's range [0:448]): the nearest
 * value, ties to the even code, beyond the largest value (infinity included) the largest, NaN the NaN;
 * a negative value by decision fnu-negative, every option.
 */
class UnsignedFloatOracleTest {

    static final String CUDA = "cuda";
    static final long SEED = 20261204L;

    /** An unsigned float: its NaN, its largest value's code and that value, and where the grid would go on. */
    record Unsigned(String name, int nan, int max, long largest, double beyond, int sources) {
        /** The value of a finite code (IndependentDecoder's, from the definitions above). */
        BigDecimal value(int code) {
            return IndependentDecoder.decode(name, code).magnitude();
        }
    }

    static final Unsigned UE5M3 = new Unsigned("ue5m3", 0xFF, 0xFE, 114688, 122880.0, 4);
    static final Unsigned UE4M3 = new Unsigned("ue4m3", 0x7F, 0x7E, 448, 480.0, 1);

    /** What a value gives, by the definitions above and the negative rule. */
    static long expected(Unsigned u, Value v, String negative) {
        if (v.kind() == Value.Kind.NAN) {
            return u.nan();
        }
        if (v.negative() && v.kind() != Value.Kind.ZERO) {
            switch (negative) {
                case "zero" -> {
                    return 0;
                }
                case "nan" -> {
                    return u.nan();
                }
                default -> { // absolute: the magnitude below
                }
            }
        }
        if (v.kind() == Value.Kind.INFINITE) {
            return u.max();
        }
        BigDecimal a = v.magnitude();
        if (a.compareTo(u.value(u.max())) >= 0) {
            return u.max();
        }
        int low = 0;
        while (u.value(low + 1).compareTo(a) <= 0) {
            low++;
        }
        if (u.value(low).compareTo(a) == 0) {
            return low;
        }
        int nearer = a.subtract(u.value(low)).compareTo(u.value(low + 1).subtract(a));
        return nearer < 0 || nearer == 0 && (low & 1) == 0 ? low : low + 1;
    }

    @Test
    void everyCodeDecodesToItsValue() {
        Reference cuda = TestProfile.reference(CUDA);
        for (Unsigned u : List.of(UE5M3, UE4M3)) {
            Converter toFloat = cuda.converter(cuda.resolve(u.name(), "float", "rn", "nosat", cuda.ctrl("")));
            for (int code = 0; code <= u.nan(); code++) {
                long bits = toFloat.apply(code);
                Value got = IndependentDecoder.decode("float", bits);
                if (code == u.nan()) {
                    assertEquals(Value.Kind.NAN, IndependentDecoder.decode(u.name(), code).kind(), u.name() + " NaN");
                    assertEquals(Value.Kind.NAN, got.kind(), u.name() + " NaN");
                } else {
                    assertEquals(0, u.value(code).compareTo(got.signed()), String.format("%s 0x%02X -> 0x%08X", u.name(), code, bits));
                }
            }
            assertEquals(0, u.value(u.max()).compareTo(BigDecimal.valueOf(u.largest())), u.name() + " the largest value");
        }
        assertEquals(0, UE5M3.value(1).compareTo(IndependentDecoder.pow2(BigInteger.ONE, -17)), "UE5M3's smallest subnormal");
        assertEquals(0, UE4M3.value(1).compareTo(IndependentDecoder.pow2(BigInteger.ONE, -9)), "UE4M3's smallest subnormal");
    }

    @TestFactory
    Stream<DynamicTest> everySourceRoundsToTheNearestValue() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String negative : List.of("zero", "nan", "absolute")) {
            Reference reference = new Reference(TestProfile.reference(CUDA).tables(),
                    Semantics.of(TestProfile.reference(CUDA).tables(), Map.of("fnu-negative", negative)));
            for (Unsigned u : List.of(UE5M3, UE4M3)) {
                for (Conversion c : reference.tables().conversions()) {
                    if (!c.to().name().equals(u.name())) {
                        continue;
                    }
                    String from = c.from().name();
                    long[] inputs = inputs(u, from);
                    tests.add(DynamicTest.dynamicTest(from + "->" + u.name() + " rn sat, fnu-negative=" + negative + " ["
                            + inputs.length + " inputs]", () -> {
                        Converter converter = reference.converter(reference.resolve(from, u.name(), "rn", "sat", reference.ctrl("")));
                        List<String> wrong = new ArrayList<>();
                        for (long x : inputs) {
                            long want = expected(u, IndependentDecoder.decode(from, x), negative);
                            long got = converter.apply(x);
                            if (got != want && wrong.size() < 8) {
                                wrong.add(String.format("0x%X: oracle 0x%02X, reference 0x%02X", x, want, got));
                            }
                        }
                        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
                    }));
                }
            }
        }
        assertEquals(3 * (UE5M3.sources() + UE4M3.sources()), tests.size(),
                "float, double, half and bfloat16 to ue5m3 and float to ue4m3, three readings each");
        return tests.stream();
    }

    @Test
    void theNegativeReadingsDiffer() {
        Value minusOne = IndependentDecoder.decode("float", 0xBF800000L);
        assertEquals(0x00, expected(UE5M3, minusOne, "zero"));
        assertEquals(0xFF, expected(UE5M3, minusOne, "nan"));
        assertEquals(0x78, expected(UE5M3, minusOne, "absolute"));
        assertEquals(0x7F, expected(UE4M3, minusOne, "nan"));
        assertEquals(0x38, expected(UE4M3, minusOne, "absolute"));
    }

    /**
     * Every half and bfloat16; for float and double, each value of u and midpoint, one ulp either side,
     * both signs, the specials, and seeded patterns.
     */
    static long[] inputs(Unsigned u, String from) {
        List<Long> inputs = new ArrayList<>();
        if (from.equals("half") || from.equals("bfloat16")) {
            for (long x = 0; x < 0x10000; x++) {
                inputs.add(x);
            }
            return inputs.stream().mapToLong(Long::longValue).toArray();
        }
        boolean isFloat = from.equals("float");
        List<Double> points = new ArrayList<>();
        for (int code = 0; code < u.max(); code++) {
            points.add(u.value(code).doubleValue());
            points.add(u.value(code).add(u.value(code + 1)).doubleValue() / 2); // exact in float and double
        }
        points.add(u.value(u.max()).doubleValue());
        points.add(u.beyond()); // the grid's next step: halfway to it is rn's overflow threshold without saturation
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
        Sweeps.seeded(SEED ^ from.hashCode() ^ u.name().hashCode(), isFloat ? 32 : 64, 20000, true, inputs::add);
        return inputs.stream().mapToLong(Long::longValue).toArray();
    }
}
