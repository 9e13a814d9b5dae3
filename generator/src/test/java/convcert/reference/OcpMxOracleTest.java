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

    /** float -> element by nearest-value search (rn: ties to the even code) or truncation (rz). */
    static long oracle(Element el, int floatBits, boolean nearest) {
        float x = Float.intBitsToFloat(floatBits);
        if (Float.isNaN(x)) {
            return el.maxCode(); // cuda_fp4.h / cuda_fp6.h: NaN gives positive MAXNORM (decision finite-nan)
        }
        boolean negative = floatBits < 0;
        int signBit = negative ? 1 << (el.width() - 1) : 0;
        if (Float.isInfinite(x)) {
            return signBit | el.maxCode();
        }
        BigDecimal magnitude = new BigDecimal(Math.abs((double) x));
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
                        long want = oracle(el, x, mode.equals("rn"));
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

    @Test
    void theOtherReadingOfNanIsSelectable() {
        Reference zero = new Reference(MX.tables(), Semantics.of(MX.tables(), java.util.Map.of("finite-nan", "zero")));
        assertEquals(0, zero.converter(zero.resolve("float", "fp4_e2m1", "rn", "sat", zero.ctrl(""))).apply(0x7FC00000L));
        assertEquals(0x7, MX.converter(MX.resolve("float", "fp4_e2m1", "rn", "sat", MX.ctrl(""))).apply(0xFFC00000L),
                "NaN gives the positive largest value whatever its sign");
    }
}
