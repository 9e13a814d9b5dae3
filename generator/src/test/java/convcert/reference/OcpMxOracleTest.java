package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The OCP MX element formats (FP4 E2M1, FP6 E2M3, FP6 E3M2) against an oracle of their own: the
 * element values from the OCP MX v1.0 definition (sign, biased exponent, subnormals at exponent 0,
 * every code a number), and conversion as the search for the nearest listed value in exact decimal
 * arithmetic, with the CUDA headers' rules for what lies outside (saturation to the largest value of
 * the sign, NaN to the largest positive value). Nothing here uses FormatCodec.
 */
class OcpMxOracleTest {

    static final Reference MX = TestProfile.reference("ocp-mx");

    /** An element format by its OCP parameters. */
    record Element(String name, int exponentBits, int mantissaBits, int bias) {
        int width() {
            return 1 + exponentBits + mantissaBits;
        }

        /** The value of a code by the OCP definition. */
        BigDecimal value(int code) {
            int sign = code >> (width() - 1);
            int e = (code >> mantissaBits) & ((1 << exponentBits) - 1);
            int m = code & ((1 << mantissaBits) - 1);
            BigDecimal fraction = BigDecimal.valueOf(m).divide(BigDecimal.valueOf(1L << mantissaBits));
            BigDecimal magnitude = e == 0 ? fraction.multiply(pow2(1 - bias)) : BigDecimal.ONE.add(fraction).multiply(pow2(e - bias));
            return sign == 1 ? magnitude.negate() : magnitude;
        }

        int maxCode() {
            return (1 << (width() - 1)) - 1;
        }
    }

    static BigDecimal pow2(int n) {
        return n >= 0 ? BigDecimal.valueOf(2).pow(n) : BigDecimal.ONE.divide(BigDecimal.valueOf(2).pow(-n));
    }

    static final List<Element> ELEMENTS = List.of(new Element("fp4_e2m1", 2, 1, 1), new Element("fp6_e2m3", 2, 3, 1),
            new Element("fp6_e3m2", 3, 2, 3));

    @Test
    void theOracleMatchesTheSpecificationsTables() {
        // OCP MX v1.0, element tables: largest normal, smallest normal, largest and smallest subnormal.
        Element e2m1 = ELEMENTS.get(0);
        Element e2m3 = ELEMENTS.get(1);
        Element e3m2 = ELEMENTS.get(2);
        assertEquals(0, e2m1.value(0b0111).compareTo(new BigDecimal("6.0")));
        assertEquals(0, e2m1.value(0b0001).compareTo(new BigDecimal("0.5")));
        assertEquals(0, e2m3.value(0b011111).compareTo(new BigDecimal("7.5")));
        assertEquals(0, e2m3.value(0b000001).compareTo(new BigDecimal("0.125")));
        assertEquals(0, e2m3.value(0b001000).compareTo(new BigDecimal("1.0")));
        assertEquals(0, e3m2.value(0b011111).compareTo(new BigDecimal("28.0")));
        assertEquals(0, e3m2.value(0b000001).compareTo(new BigDecimal("0.0625")));
        assertEquals(0, e3m2.value(0b000100).compareTo(new BigDecimal("0.25")));
    }

    /** float or double -> element by nearest-value search (rn: ties to the even code) or truncation (rz). */
    static long oracle(Element el, double x, boolean nearest) {
        if (Double.isNaN(x)) {
            return el.maxCode(); // cuda_fp4.h / cuda_fp6.h: NaN gives positive MAXNORM (decision finite-nan)
        }
        int signBit = Double.doubleToRawLongBits(x) < 0 ? 1 << (el.width() - 1) : 0;
        if (Double.isInfinite(x)) {
            return signBit | el.maxCode();
        }
        BigDecimal magnitude = new BigDecimal(Math.abs(x));
        int best = 0;
        for (int code = 0; code <= el.maxCode(); code++) {
            BigDecimal v = el.value(code);
            if (nearest) {
                int cmp = magnitude.subtract(v).abs().compareTo(magnitude.subtract(el.value(best)).abs());
                if (cmp < 0 || (cmp == 0 && (code & 1) == 0)) {
                    best = code;
                }
            } else if (v.compareTo(magnitude) <= 0) {
                best = code; // codes are in value order: the last at or below |x|
            }
        }
        return signBit | best; // beyond the largest value the search ends there: saturation
    }

    static int[] inputs(Element el) {
        List<Integer> points = new ArrayList<>();
        for (int code = 0; code <= el.maxCode(); code++) { // every value, every midpoint, one float ulp either side
            float v = el.value(code).floatValue();
            float next = code < el.maxCode() ? el.value(code + 1).floatValue() : v * 2;
            for (float p : new float[] {v, (v + next) / 2}) {
                int bits = Float.floatToRawIntBits(p);
                for (int d = -1; d <= 1; d++) {
                    points.add(bits + d);
                    points.add((bits + d) ^ 0x80000000);
                }
            }
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) { // log-uniform over the elements' range and beyond
            int exponent = 127 + random.nextInt(-20, 10);
            points.add((random.nextBoolean() ? 0x80000000 : 0) | exponent << 23 | random.nextInt(1 << 23));
        }
        for (int special : new int[] {0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7F7FFFFF, 1, 0x80000001}) {
            points.add(special);
        }
        return points.stream().mapToInt(Integer::intValue).toArray();
    }

    @TestFactory
    Stream<DynamicTest> floatToElementsAgreeWithTheOracle() {
        return ELEMENTS.stream().flatMap(el -> Stream.of("rn", "rz").map(mode -> DynamicTest.dynamicTest(
                "float->" + el.name() + " " + mode, () -> {
                    Converter c = MX.converter(MX.resolve("float", el.name(), mode, "sat", MX.ctrl("")));
                    List<String> wrong = new ArrayList<>();
                    for (int x : inputs(el)) {
                        long want = oracle(el, Float.intBitsToFloat(x), mode.equals("rn"));
                        long got = c.apply(x & 0xFFFFFFFFL);
                        if (got != want && wrong.size() < 5) {
                            wrong.add(String.format("0x%08X: oracle 0x%X, reference 0x%X", x, want, got));
                        }
                    }
                    assertTrue(wrong.isEmpty(), () -> String.join("\n", wrong));
                })));
    }

    @TestFactory
    Stream<DynamicTest> elementsToFloatAreExactForEveryCode() {
        return ELEMENTS.stream().map(el -> DynamicTest.dynamicTest(el.name() + "->float", () -> {
            Converter c = MX.converter(MX.resolve(el.name(), "float", "rn", "nosat", MX.ctrl("")));
            for (int code = 0; code < 1 << el.width(); code++) {
                float expected = el.value(code).floatValue();
                int bits = Float.floatToRawIntBits(code >> (el.width() - 1) == 1 && expected == 0 ? -0.0f : expected);
                assertEquals(Integer.toHexString(bits), Long.toHexString(c.apply(code)), el.name() + " code " + code);
            }
        }));
    }

    /**
     * float or double -> E8M0 by the CUDA header's description: the magnitude rounded to a power of two
     * toward zero or up (or, for ml_dtypes' rn, to the nearer of the two, 1.5 x 2^e going up), clipped to
     * 2^-127 below, to 2^127 (SATFINITE) or NaN (NOSAT) above; NaN gives 0xFF.
     */
    static long e8m0(double value, String mode, boolean satfinite) {
        double x = Math.abs(value);
        if (Double.isNaN(x)) {
            return 0xFF;
        }
        if (Double.isInfinite(x)) {
            return satfinite ? 0xFE : 0xFF;
        }
        if (x == 0) {
            return 0x00;
        }
        int e = Math.getExponent(x); // 2^e <= |x| < 2^(e+1) from the JDK; a float subnormal is a normal double
        boolean up = mode.equals("ru") ? Math.scalb(1.0, e) != x : mode.equals("rn") && x >= 1.5 * Math.scalb(1.0, e);
        if (up) {
            e++;
        }
        if (e > 127) {
            return satfinite ? 0xFE : 0xFF;
        }
        return Math.max(e, -127) + 127;
    }

    @TestFactory
    Stream<DynamicTest> floatToE8m0AgreesWithTheOracle() {
        int[] inputs = new SplittableRandom(11).ints(30_000).toArray();
        int[] edges = {0, 0x80000000, 1, 0x00400000, 0x00400001, 0x3F800000, 0x3F800001, 0x40400000, 0xC0400000,
            0x7F000000, 0x7F000001, 0x7F400000, 0x7F3FFFFF, 0x00600000, 0x005FFFFF, 0x3FC00000, 0x3FBFFFFF,
            0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000};
        return Stream.of("rz nosat", "rz sat", "ru nosat", "ru sat", "rn nosat", "rn sat").map(spec -> DynamicTest.dynamicTest(
                "float->e8m0 " + spec, () -> {
                    String[] s = spec.split(" ");
                    Converter c = MX.converter(MX.resolve("float", "e8m0", s[0], s[1], MX.ctrl("")));
                    for (int[] set : new int[][] {inputs, edges}) {
                        for (int x : set) {
                            long want = e8m0(Float.intBitsToFloat(x), s[0], s[1].equals("sat"));
                            assertEquals(Long.toHexString(want), Long.toHexString(c.apply(x & 0xFFFFFFFFL)),
                                    String.format("0x%08X %s", x, spec));
                        }
                    }
                }));
    }

    @Test
    void e8m0CodesAreUnsignedPowersOfTwo() {
        Converter back = MX.converter(MX.resolve("e8m0", "float", "rn", "nosat", MX.ctrl("")));
        for (int code = 0; code < 0xFF; code++) {
            float expected = pow2(code - 127).floatValue();
            assertEquals(Integer.toHexString(Float.floatToRawIntBits(expected)), Long.toHexString(back.apply(code)),
                    "code " + code);
        }
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) back.apply(0xFF))));
    }

    /** cuda's __nv_cvt_e8m0_to_bf16raw: every power of two 2^-127..2^127 is a bfloat16, the top half of its float. */
    @Test
    void e8m0CodesAreExactInBfloat16() {
        Reference cuda = TestProfile.reference("cuda");
        Converter toBf16 = cuda.converter(cuda.resolve("e8m0", "bfloat16", "rn", "nosat", cuda.ctrl("")));
        for (int code = 0; code < 0xFF; code++) {
            int expected = Float.floatToRawIntBits(pow2(code - 127).floatValue()) >>> 16;
            assertEquals(Integer.toHexString(expected), Long.toHexString(toBf16.apply(code)), "code " + code);
        }
        long nan = toBf16.apply(0xFF);
        assertTrue((nan & 0x7F80) == 0x7F80 && (nan & 0x7F) != 0, "0xFF gives a NaN: 0x" + Long.toHexString(nan));
    }

    @Test
    void theOtherReadingOfNanIsSelectable() {
        Reference zero = new Reference(MX.tables(), Semantics.of(MX.tables(), java.util.Map.of("finite-nan", "zero")));
        assertEquals(0, zero.converter(zero.resolve("float", "fp4_e2m1", "rn", "sat", zero.ctrl(""))).apply(0x7FC00000L));
        assertEquals(0x7, MX.converter(MX.resolve("float", "fp4_e2m1", "rn", "sat", MX.ctrl(""))).apply(0xFFC00000L),
                "NaN gives the positive largest value whatever its sign");
    }
}
