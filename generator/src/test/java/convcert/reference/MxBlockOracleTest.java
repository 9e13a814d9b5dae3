package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The MX block conversion against an oracle of its own, written from OCP MX v1.0 section 6.3 and the
 * decision rows: the largest magnitude from the floats as doubles, the scale from Math.getExponent,
 * each element by searching the element's value list (values from the OCP field definition) for the
 * neighbours of value / scale, and block -> float as a double product narrowed by the JDK. Nothing
 * here uses FormatCodec or Converter.
 */
class MxBlockOracleTest {

    static final Reference MX = TestProfile.reference("ocp-mx");

    /** An element format by its OCP parameters; maxCode is the largest finite positive code. */
    record Element(String name, int exponentBits, int mantissaBits, int bias, int maxCode, String block) {
        int width() {
            return 1 + exponentBits + mantissaBits;
        }

        double value(int code) {
            int e = (code >> mantissaBits) & ((1 << exponentBits) - 1);
            int m = code & ((1 << mantissaBits) - 1);
            double magnitude = e == 0 ? Math.scalb((double) m, 1 - bias - mantissaBits)
                    : Math.scalb((double) ((1 << mantissaBits) | m), e - bias - mantissaBits);
            return code >> (width() - 1) == 1 ? -magnitude : magnitude;
        }

        int emax() {
            return Math.getExponent(value(maxCode));
        }

        boolean isNan(int code) {
            int magnitude = code & ((1 << (width() - 1)) - 1);
            return name.equals("fp8_e4m3fn") ? magnitude == 0x7F : name.equals("fp8_e5m2") && magnitude > 0x7C;
        }
    }

    static final List<Element> ELEMENTS = List.of(
            new Element("fp8_e4m3fn", 4, 3, 7, 0x7E, "mxfp8_e4m3"), new Element("fp8_e5m2", 5, 2, 15, 0x7B, "mxfp8_e5m2"),
            new Element("fp6_e3m2", 3, 2, 3, 0x1F, "mxfp6_e3m2"), new Element("fp6_e2m3", 2, 3, 1, 0x1F, "mxfp6_e2m3"),
            new Element("fp4_e2m1", 2, 1, 1, 0x7, "mxfp4_e2m1"));

    @Test
    void theElementsLargestExponentsAreTheSpecifications() {
        // OCP MX v1.0 Table 1: emax of E4M3 8, E5M2 15, E3M2 4, E2M3 2, E2M1 2.
        assertEquals(List.of(8, 15, 4, 2, 2), ELEMENTS.stream().map(Element::emax).toList());
    }

    /** The shared scale's exponent by the decision's text, or null for NaN. */
    static Integer scale(float[] block, Element el, String rule, boolean ignoreNan) {
        return scale(block, el, rule, ignoreNan, false);
    }

    /** infinityLargest: decision mx-infinity=largest-scale, where an infinity clips the scale to 2^127 unless NaN decides. */
    static Integer scale(float[] block, Element el, String rule, boolean ignoreNan, boolean infinityLargest) {
        double amax = 0;
        boolean nan = false;
        boolean infinite = false;
        int nans = 0;
        for (float x : block) {
            if (Float.isInfinite(x)) {
                infinite = true;
            } else if (Float.isNaN(x)) {
                nan = true;
                nans++;
            } else {
                amax = Math.max(amax, Math.abs((double) x));
            }
        }
        if (nan && (!ignoreNan || nans == block.length)) {
            return null;
        }
        if (infinite) {
            return infinityLargest ? 127 : null;
        }
        if (amax == 0) {
            return -127;
        }
        int e = Math.getExponent(amax); // exact: every float is a normal double
        int s = switch (rule) {
            case "floor" -> e - el.emax();
            case "ceil" -> e + (Math.scalb(1.0, e) == amax ? 0 : 1) - el.emax();
            case "even" -> {
                double quantum = Math.scalb(1.0, e - el.mantissaBits());
                yield Math.getExponent(Math.floor(amax / quantum + 0.5) * quantum) - el.emax();
            }
            case "rceil" -> {
                int k = -200;
                while (el.value(el.maxCode()) * Math.scalb(1.0, k) < amax) {
                    k++;
                }
                yield k;
            }
            default -> throw new IllegalArgumentException(rule);
        };
        return Math.max(s, -127);
    }

    /** One element: value / 2^s to the nearest listed value (ties to the even code) or toward zero, saturating. */
    static long element(float x, int s, Element el, boolean nearest) {
        int sign = (Float.floatToRawIntBits(x) < 0 ? 1 : 0) << (el.width() - 1);
        if (Float.isNaN(x)) {
            return el.maxCode(); // FP6/FP4: decision finite-nan (positive largest value); FP8 is not asked here
        }
        double v = Math.abs(Math.scalb((double) x, -s));
        int lo = 0;
        while (lo < el.maxCode() && el.value(lo + 1) <= v) {
            lo++;
        }
        if (lo == el.maxCode() || !nearest) {
            return sign | lo;
        }
        double mid = (el.value(lo) + el.value(lo + 1)) / 2;
        return sign | (v > mid || (v == mid && (lo & 1) == 1) ? lo + 1 : lo);
    }

    static float[] randomBlock(SplittableRandom random, Element el) {
        float[] block = new float[32];
        int top = random.nextInt(-140, 128); // the block's largest binade, across the whole float range
        int shape = random.nextInt(6);
        for (int i = 0; i < 32; i++) {
            int e = Math.max(-149, top - random.nextInt(shape == 0 ? 1 : shape * 6));
            float f = (float) Math.scalb(1.0 + random.nextInt(1 << 23) / (double) (1 << 23), e);
            if (shape == 1) { // ties and midpoints of the element grid: few significant bits
                f = (float) Math.scalb((double) random.nextInt(1, 1 << (el.mantissaBits() + 2)), e - el.mantissaBits() - 1);
            }
            block[i] = random.nextBoolean() ? -f : f;
        }
        if (shape == 2) { // the largest magnitude just below, at or just above a binade edge
            block[random.nextInt(32)] = Math.nextAfter((float) Math.scalb(1.0, Math.min(top, 127)), random.nextInt(3) - 1.0);
        }
        if (shape == 3) {
            block[random.nextInt(32)] = 0;
        }
        return block;
    }

    static long[] bits(float[] block) {
        long[] in = new long[block.length];
        for (int i = 0; i < block.length; i++) {
            in[i] = Float.floatToRawIntBits(block[i]) & 0xFFFFFFFFL;
        }
        return in;
    }

    static List<float[]> blocks(Element el, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<float[]> blocks = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            blocks.add(randomBlock(random, el));
        }
        float[] zeros = new float[32];
        zeros[3] = -0.0f;
        blocks.add(zeros);
        float[] subnormal = new float[32];
        for (int i = 0; i < 32; i++) {
            subnormal[i] = Float.intBitsToFloat(random.nextInt(1, 1 << 23));
        }
        blocks.add(subnormal);
        return blocks;
    }

    static void check(Reference reference, Element el, String mode, String rule, boolean ignoreNan, List<float[]> blocks) {
        check(reference, el, mode, rule, ignoreNan, false, blocks);
    }

    static void check(Reference reference, Element el, String mode, String rule, boolean ignoreNan, boolean infinityLargest,
                      List<float[]> blocks) {
        BlockFormat format = reference.tables().blocks().get(el.block());
        BlockConverter c = reference.blockConverter(format, Rounding.parse(mode), true);
        List<String> wrong = new ArrayList<>();
        int size = format.size();
        long[] out = new long[size + 1];
        for (float[] whole : blocks) {
            float[] block = java.util.Arrays.copyOf(whole, size); // blocks of 16 take the first half
            long[] in = bits(block);
            c.apply(in, 0, out, 0, 1);
            Integer s = scale(block, el, rule, ignoreNan, infinityLargest);
            long wantScale = s == null ? 0xFF : s + 127;
            if (out[0] != wantScale) {
                wrong.add("scale: oracle 0x" + Long.toHexString(wantScale) + ", reference 0x" + Long.toHexString(out[0])
                        + " for " + java.util.Arrays.toString(block));
            } else if (s != null) {
                for (int i = 0; i < size; i++) {
                    long want = element(block[i], s, el, mode.equals("rn"));
                    boolean bothNan = Float.isNaN(block[i]) && el.isNan((int) out[1 + i]);
                    if (out[1 + i] != want && !bothNan) {
                        wrong.add("element " + i + " (" + block[i] + ", scale 2^" + s + "): oracle 0x" + Long.toHexString(want)
                                + ", reference 0x" + Long.toHexString(out[1 + i]));
                    }
                }
            }
            if (wrong.size() > 5) {
                break;
            }
        }
        assertTrue(wrong.isEmpty(), () -> String.join("\n", wrong));
    }

    @TestFactory
    Stream<DynamicTest> floatsToBlocksAgreeWithTheOracle() {
        return ELEMENTS.stream().flatMap(el -> Stream.of("rn", "rz").map(mode -> DynamicTest.dynamicTest(
                "float->" + el.block() + " " + mode, () -> check(MX, el, mode, "floor", false, blocks(el, 5)))));
    }

    @TestFactory
    Stream<DynamicTest> blocksOfSixteenFollowTheSameRule() {
        // RISC-V's Integrated Matrix draft scales MX blocks of 16 (prefix xn): the OCP algorithm on 16 values
        return Stream.of(new Element("fp8_e4m3fn", 4, 3, 7, 0x7E, "mxfp8_e4m3_bs16"),
                new Element("fp4_e2m1", 2, 1, 1, 0x7, "mxfp4_e2m1_bs16")).flatMap(el -> Stream.of("rn", "rz").map(mode ->
                DynamicTest.dynamicTest("float->" + el.block() + " " + mode, () -> {
                    assertEquals(16, MX.tables().blocks().get(el.block()).size());
                    check(MX, el, mode, "floor", false, blocks(el, 13));
                })));
    }

    @TestFactory
    Stream<DynamicTest> everyScaleRuleAgreesWithTheOracle() {
        return Stream.of("even", "ceil", "rceil").flatMap(rule -> ELEMENTS.stream().map(el -> DynamicTest.dynamicTest(
                "mx-scale=" + rule + " float->" + el.block(), () -> {
                    Reference r = new Reference(MX.tables(), Semantics.of(MX.tables(), Map.of("mx-scale", rule)));
                    check(r, el, "rn", rule, false, blocks(el, 9));
                })));
    }

    @TestFactory
    Stream<DynamicTest> nanAndInfinityBlocks() {
        return Stream.of("nan-scale", "ignore-nan").flatMap(option -> Stream.of("nan-scale", "largest-scale").flatMap(inf ->
                ELEMENTS.stream().map(el -> DynamicTest.dynamicTest(
                "mx-nan=" + option + " mx-infinity=" + inf + " float->" + el.block(), () -> {
                    Reference r = new Reference(MX.tables(), Semantics.of(MX.tables(), Map.of("mx-nan", option,
                            "mx-infinity", inf)));
                    SplittableRandom random = new SplittableRandom(3);
                    List<float[]> blocks = new ArrayList<>();
                    for (int i = 0; i < 400; i++) {
                        float[] block = randomBlock(random, el);
                        int specials = 1 + random.nextInt(i % 50 == 0 ? 32 : 3);
                        for (int k = 0; k < specials; k++) {
                            // infinities alone, NaNs alone, and every 11th block both (NaN decides first)
                            block[random.nextInt(32)] = i % 7 == 0 ? Float.NEGATIVE_INFINITY
                                    : i % 11 == 0 && k == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
                        }
                        blocks.add(block);
                    }
                    float[] allNan = new float[32];
                    java.util.Arrays.fill(allNan, Float.NaN);
                    blocks.add(allNan);
                    check(r, el, "rn", "floor", option.equals("ignore-nan"), inf.equals("largest-scale"), blocks);
                }))));
    }

    @TestFactory
    Stream<DynamicTest> blocksToFloatsAreTheExactProductNarrowed() {
        return ELEMENTS.stream().map(el -> DynamicTest.dynamicTest(el.block() + "->float", () -> {
            BlockConverter c = MX.blockConverter(MX.tables().blocks().get(el.block()), Rounding.RN, false);
            long[] out = new long[32];
            for (int scale : new int[] {0x00, 0x01, 0x20, 0x70, 0x7F, 0x80, 0xC0, 0xF0, 0xFD, 0xFE, 0xFF}) {
                for (int first = 0; first < 1 << el.width(); first += 32) {
                    long[] in = new long[33];
                    in[0] = scale;
                    for (int i = 0; i < 32; i++) {
                        in[1 + i] = (first + i) & ((1 << el.width()) - 1);
                    }
                    c.apply(in, 0, out, 0, 1);
                    for (int i = 0; i < 32; i++) {
                        int code = (int) in[1 + i];
                        boolean infinite = el.name().equals("fp8_e5m2") && (code & 0x7F) == 0x7C;
                        float want = scale == 0xFF || el.isNan(code) ? Float.NaN
                                : infinite ? (code > 0x7F ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY)
                                : (float) (el.value(code) * Math.scalb(1.0, scale - 127));
                        float got = Float.intBitsToFloat((int) out[i]);
                        assertTrue(Float.isNaN(want) ? Float.isNaN(got) : Float.floatToRawIntBits(want) == (int) out[i],
                                () -> "scale 0x" + Integer.toHexString(scale) + " code 0x" + Integer.toHexString(code)
                                        + ": oracle " + want + ", reference " + got);
                    }
                }
            }
        }));
    }

    @Test
    void handWorkedBlocks() {
        // A block of 7.0 and small values, MXFP4 (largest element 6 = 1.1b x 2^2, emax 2):
        // floor: floor(log2 7) - 2 = 0, so 7 saturates to 6 (code 0x7);
        // even: 7 = 1.11b x 2^2 rounds at 1 fraction bit, ties up, to 2^3: scale 2^1, 7/2 = 3.5 ties to 4 (0x6);
        // rceil: 7/6 rounds up to 2^1: the same as even here; ceil: 2^(3-2) = 2^1 too.
        float[] block = new float[32];
        block[0] = 7.0f;
        block[1] = 0.25f;
        Element fp4 = ELEMENTS.get(4);
        for (String[] row : new String[][] {{"floor", "7f", "7", "0"}, {"even", "80", "6", "0"}, {"rceil", "80", "6", "0"},
            {"ceil", "80", "6", "0"}}) {
            Reference r = new Reference(MX.tables(), Semantics.of(MX.tables(), Map.of("mx-scale", row[0])));
            long[] out = new long[33];
            r.blockConverter(MX.tables().blocks().get(fp4.block()), Rounding.RN, true).apply(bits(block), 0, out, 0, 1);
            assertEquals(row[1], Long.toHexString(out[0]), row[0] + " scale");
            assertEquals(row[2], Long.toHexString(out[1]), row[0] + " element 0");
            assertEquals(row[3], Long.toHexString(out[2]), row[0] + " element 1 (0.25 or 0.125: below half the smallest 0.5)");
        }
    }
}
