package convcert.reference;

import static convcert.reference.HandBinary32.E2M1;
import static convcert.reference.HandBinary32.bits;
import static convcert.reference.HandBinary32.divide;
import static convcert.reference.HandBinary32.e2m1;
import static convcert.reference.HandBinary32.e4m3;
import static convcert.reference.HandBinary32.fminf;
import static convcert.reference.HandBinary32.multiply;
import static convcert.reference.HandBinary32.toE2m1;
import static convcert.reference.HandBinary32.toE4m3;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * NVFP4's two-level recipes against an oracle of their own, written from the sources the decisions
 * cite (TransformerEngine's core_nvfp4.cuh and dequantize_nvfp4.cuh, torchao's nvfp4_tensor.py,
 * cuDNN's round-up, cuBLASLt's UE4M3): every binary32 step is done in exact integer arithmetic and
 * rounded to nearest even by hand, E4M3 and E2M1 values come from their field definitions
 * (HandBinary32), and nothing here uses Java float arithmetic, FormatCodec or Converter. Every
 * combination of the recipe's decisions is checked on seeded blocks.
 */
class TwoLevelOracleTest {

    static final SpecTables CUDA = TestProfile.reference("cuda").tables();

    /** The decisions, as the oracle reads them. */
    record Options(String arithmetic, boolean roundUp, boolean minimumNormal, boolean signed, boolean ignoreNan,
                   boolean infinityNanScale) {
        boolean divide() {
            return arithmetic.startsWith("divide");
        }

        /** vLLM's reference (tests/kernels/test_nvfp4_quant.py): G from the reciprocal of A, applied last. */
        boolean vllm() {
            return arithmetic.equals("reciprocal-amax");
        }

        /** x / c for the recipe's constants 6 and 2688: divided, or times the rounded reciprocal (torchao on CUDA). */
        float byConstant(float x, float c) {
            return arithmetic.equals("divide-constant-reciprocal") ? multiply(x, HandBinary32.divide(1f, c))
                    : HandBinary32.divide(x, c);
        }

        Map<String, String> asDecisions() {
            return Map.of("tensor-scale-arithmetic", arithmetic,
                    "block-scale-rounding", roundUp ? "ru" : "rn",
                    "block-scale-minimum", minimumNormal ? "smallest-normal" : "none",
                    "block-scale-sign", signed ? "signed" : "ignore",
                    "mx-nan", ignoreNan ? "ignore-nan" : "nan-scale",
                    "mx-infinity", infinityNanScale ? "nan-scale" : "largest-scale");
        }
    }

    // ---- the recipes, step by step ------------------------------------------------------------

    static final float M = 2688f;
    static final float RCP_6 = divide(1f, 6f);
    static final float RCP_M = divide(1f, M);

    /** How element i's scaled value becomes its code: E2M1 to nearest even, or (rs) by its random bits. */
    interface ElementRounding {
        int code(int i, float scaled);
    }

    /** amax, then 16 values -> the scale code, then 16 element codes (elements 0 under a NaN scale). */
    static int[] quantize(float amax, float[] x, Options o) {
        return quantize(amax, x, o, (i, q) -> toE2m1(q));
    }

    /** The same with each element rounded by the given rule. */
    static int[] quantize(float amax, float[] x, Options o, ElementRounding element) {
        float a = 0;
        int nans = 0;
        boolean infinite = false;
        for (float v : x) {
            if (Float.isNaN(v)) {
                nans++;
            } else {
                infinite |= Float.isInfinite(v);
                float magnitude = Float.intBitsToFloat(Float.floatToRawIntBits(v) & 0x7FFFFFFF);
                a = magnitude > a ? magnitude : a;
            }
        }
        int[] out = new int[17];
        if ((nans > 0 && (!o.ignoreNan() || nans == 16)) || (infinite && o.infinityNanScale())) {
            out[0] = 0x7F;
            return out;
        }
        float t = o.byConstant(amax, M);
        float g = fminf(divide(M, amax), Float.MAX_VALUE);
        if (amax == 0 || g == 0) {
            g = 1f;
        }
        if (o.vllm()) { // 2688 / amax_tensor: PyTorch's reciprocal of the tensor times the number, no guard
            g = multiply(divide(1f, amax), M);
        }
        float s = o.divide() ? divide(o.byConstant(a, 6f), t)
                : o.vllm() ? multiply(g, multiply(a, RCP_6))
                : o.arithmetic().equals("reciprocal-divide-first") ? multiply(divide(a, 6f), g) : multiply(a, multiply(g, RCP_6));
        if (o.minimumNormal() && s < 0x1p-6f) {
            s = 0x1p-6f;
        }
        int code = toE4m3(s, o.roundUp());
        if (code == 0x7F) {
            out[0] = code;
            return out;
        }
        out[0] = code;
        float scale = (float) e4m3(code);
        float total = multiply(t, scale);
        float d = multiply(scale, divide(1f, g));
        float r = o.vllm() ? (d == 0 ? 0f : divide(1f, d)) : fminf(divide(1f, d), Float.MAX_VALUE);
        for (int i = 0; i < 16; i++) {
            out[1 + i] = element.code(i, o.arithmetic().equals("divide-multiply") ? multiply(x[i], divide(divide(1f, t), scale))
                    : o.divide() ? divide(x[i], total) : multiply(x[i], r));
        }
        return out;
    }

    /** amax, the scale code and 16 element codes -> 16 floats. */
    static float[] dequantize(float amax, int scaleCode, int[] elements, Options o) {
        float scale = (float) e4m3(o.signed() ? scaleCode : scaleCode & 0x7F);
        float factor = o.divide() ? multiply(o.byConstant(amax, M), scale)
                : o.vllm() ? divide(scale, multiply(divide(1f, amax), M)) // tensor_sf / global_scale
                : multiply(multiply(scale, amax), RCP_M);
        float[] out = new float[16];
        for (int i = 0; i < 16; i++) {
            out[i] = multiply(e2m1(elements[i]), factor);
        }
        return out;
    }

    // ---- blocks --------------------------------------------------------------------------------

    static float random(SplittableRandom random, int low, int high) {
        return Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(low, high));
    }

    /** A block: amax, then 16 values of many shapes (ties, tiny, above amax, specials). */
    static float[] valueBlock(SplittableRandom random) {
        float[] v = new float[17];
        int shape = random.nextInt(8);
        v[0] = switch (shape) {
            case 0 -> M;
            case 1 -> 0f;
            case 2 -> Float.intBitsToFloat(random.nextInt(1, 1 << 23));
            case 3 -> random(random, 100, 128);
            default -> random(random, -30, 30);
        };
        float top = shape == 0 ? 6f * (float) e4m3(random.nextInt(1, 0x7F)) : Math.scalb(v[0] == 0 ? 1f : v[0],
                -random.nextInt(-2, 30));
        for (int i = 1; i <= 16; i++) {
            float x = shape == 0 && random.nextBoolean()
                    ? (float) (E2M1[random.nextInt(8)] + E2M1[random.nextInt(8)]) / 2 * top / 6 // grid points and midpoints
                    : Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, Math.getExponent(top) - random.nextInt(0, 10));
            v[i] = random.nextBoolean() ? -x : x;
        }
        if (shape == 4) { // s within a few binary32 steps of an E4M3 value or midpoint
            int code = random.nextInt(1, 0x7E);
            double boundary = random.nextBoolean() ? e4m3(code) : (e4m3(code) + e4m3(code + 1)) / 2;
            float a = (float) (boundary * 6 * v[0] / M);
            for (int k = random.nextInt(-3, 4); k != 0; k += k < 0 ? 1 : -1) {
                a = k < 0 ? Math.nextDown(a) : Math.nextUp(a);
            }
            v[1 + random.nextInt(16)] = random.nextBoolean() ? -a : a;
            for (int i = 1; i <= 16; i++) {
                while (Math.abs(v[i]) > a) {
                    v[i] /= 4;
                }
            }
        }
        if (shape == 5) { // elements within a few binary32 steps of an E2M1 midpoint after scaling
            float[] alone = new float[16];
            alone[0] = top;
            float scale = (float) e4m3(quantize(v[0], alone, new Options("reciprocal", false, false, false, false, false))[0]);
            for (int i = 2; i <= 16; i++) {
                int code = random.nextInt(0, 7);
                float x = (float) ((E2M1[code] + E2M1[code + 1]) / 2 * scale * v[0] / M);
                for (int k = random.nextInt(-3, 4); k != 0; k += k < 0 ? 1 : -1) {
                    x = k < 0 ? Math.nextDown(x) : Math.nextUp(x);
                }
                v[i] = random.nextBoolean() ? -x : x;
            }
            v[1] = top;
        }
        switch (random.nextInt(12)) {
            case 0 -> v[1 + random.nextInt(16)] = Float.NaN;
            case 1 -> v[1 + random.nextInt(16)] = random.nextBoolean() ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            case 2 -> java.util.Arrays.fill(v, 1, 17, 0f);
            default -> { }
        }
        return v;
    }

    static final List<String> ARITHMETICS = List.of("reciprocal", "divide", "divide-constant-reciprocal", "reciprocal-amax",
            "divide-multiply", "reciprocal-divide-first");

    static List<Options> allOptions() {
        List<Options> all = new ArrayList<>();
        for (String arithmetic : ARITHMETICS) {
            for (int k = 0; k < 32; k++) {
                all.add(new Options(arithmetic, (k & 1) != 0, (k & 2) != 0, (k & 4) != 0, (k & 8) != 0, (k & 16) != 0));
            }
        }
        return all;
    }

    static BlockConverter converter(Options o, boolean toBlock) {
        Reference r = new Reference(CUDA, Semantics.of(CUDA, o.asDecisions()));
        BlockFormat nvfp4 = CUDA.blocks().get("nvfp4");
        return r.blockConverter(nvfp4, Rounding.RN, toBlock);
    }

    @TestFactory
    Stream<DynamicTest> quantizationAgreesUnderEveryCombinationOfDecisions() {
        return allOptions().stream().filter(o -> !o.signed()).map(o -> DynamicTest.dynamicTest(o.toString(), () -> {
            BlockConverter c = converter(o, true);
            SplittableRandom random = new SplittableRandom(20261202L);
            List<String> wrong = new ArrayList<>();
            long[] in = new long[17];
            long[] out = new long[17];
            for (int n = 0; n < 3000; n++) {
                float[] block = valueBlock(random);
                for (int i = 0; i < 17; i++) {
                    in[i] = bits(block[i]);
                }
                c.apply(in, 0, out, 0, 1);
                float[] values = java.util.Arrays.copyOfRange(block, 1, 17);
                int[] want = quantize(block[0], values, o);
                for (int i = 0; i < 17; i++) {
                    if (want[i] != out[i] && (i == 0 || want[0] != 0x7F)) {
                        wrong.add("block " + java.util.Arrays.toString(block) + " output " + i + ": oracle 0x"
                                + Integer.toHexString(want[i]) + ", reference 0x" + Long.toHexString(out[i]));
                        break;
                    }
                }
            }
            assertTrue(wrong.isEmpty(), wrong.size() + " blocks differ, e.g. " + wrong.stream().limit(3).toList());
        }));
    }

    @TestFactory
    Stream<DynamicTest> dequantizationAgreesUnderEveryCombinationOfDecisions() {
        return allOptions().stream().filter(o -> !o.roundUp() && !o.minimumNormal() && !o.ignoreNan() && !o.infinityNanScale())
                .map(o -> DynamicTest.dynamicTest(o.toString(), () -> {
                    BlockConverter c = converter(o, false);
                    SplittableRandom random = new SplittableRandom(7);
                    List<String> wrong = new ArrayList<>();
                    long[] in = new long[18];
                    long[] out = new long[16];
                    for (int n = 0; n < 3000; n++) {
                        float amax = switch (n % 5) {
                            case 0 -> M;
                            case 1 -> 0f;
                            case 2 -> Float.MAX_VALUE;
                            default -> random(random, -60, 60);
                        };
                        int scale = random.nextInt(256);
                        int[] elements = random.ints(16, 0, 16).toArray();
                        in[0] = bits(amax);
                        in[1] = scale;
                        for (int i = 0; i < 16; i++) {
                            in[2 + i] = elements[i];
                        }
                        c.apply(in, 0, out, 0, 1);
                        float[] want = dequantize(amax, scale, elements, o);
                        for (int i = 0; i < 16; i++) {
                            boolean bothNan = Float.isNaN(want[i]) && Float.isNaN(Float.intBitsToFloat((int) out[i]));
                            if (bits(want[i]) != out[i] && !bothNan) {
                                wrong.add("amax " + amax + " scale 0x" + Integer.toHexString(scale) + " element " + i
                                        + ": oracle " + want[i] + ", reference " + Float.intBitsToFloat((int) out[i]));
                                break;
                            }
                        }
                    }
                    assertTrue(wrong.isEmpty(), wrong.size() + " blocks differ, e.g. " + wrong.stream().limit(3).toList());
                }));
    }

    @Test
    void theHandArithmeticIsBinary32() {
        // rn(1/6) and rn(1/2688) as the C compilers fold them: 0x3E2AAAAB and 0x39C30C31
        assertEquals(0x3E2AAAAB, Float.floatToRawIntBits(RCP_6));
        assertEquals(0x39C30C31, Float.floatToRawIntBits(RCP_M));
        assertEquals(Float.MIN_VALUE, divide(Float.MIN_NORMAL, 0x1p23f)); // into the subnormals
        assertEquals(Float.POSITIVE_INFINITY, multiply(Float.MAX_VALUE, 2f));
    }

    @Test
    void aWorkedBlock() {
        // A = 2688: T = 1 and G = 1. The block's largest magnitude 6 gives s = 1 (E4M3 0x38) in both
        // recipes; 3 is E2M1 0x5, -1.25 a tie between 1 (0x2) and 1.5 (0x3): the even code, 0xA with the
        // sign; 0.2 is nearer 0 than 0.5; 5 is a tie between 4 (0x6) and 6 (0x7): 0x6.
        float[] block = {2688f, 6f, 3f, -1.25f, 0.2f, 5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        long[] in = new long[17];
        for (int i = 0; i < 17; i++) {
            in[i] = bits(block[i]);
        }
        long[] want = {0x38, 0x7, 0x5, 0xA, 0x0, 0x6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (String arithmetic : ARITHMETICS) {
            long[] out = new long[17];
            converter(new Options(arithmetic, false, false, false, false, false), true).apply(in, 0, out, 0, 1);
            assertArrayEquals(want, out, arithmetic);
        }
    }

    @Test
    void theOracleSeesTheRecipesDiffer() {
        // the oracle is not blind to the decision it checks: some seeded block tells the recipes apart
        SplittableRandom random = new SplittableRandom(3);
        List<Options> arithmetics = ARITHMETICS.stream().map(a -> new Options(a, false, false, false, false, false)).toList();
        for (Options x : arithmetics) {
            for (Options y : arithmetics) {
                int differing = 0;
                for (int n = 0; n < 3000 && x != y; n++) {
                    float[] block = valueBlock(random);
                    float[] values = java.util.Arrays.copyOfRange(block, 1, 17);
                    differing += java.util.Arrays.equals(quantize(block[0], values, x), quantize(block[0], values, y)) ? 0 : 1;
                }
                assertTrue(x == y || differing > 0, "no block separates " + x.arithmetic() + " from " + y.arithmetic());
            }
        }
    }
}
