package convcert.reference;

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

import convcert.spec.Rounding;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * NVFP4's "Four Over Six" block-scale choice (decision block-scale-choice) against an oracle written from
 * TransformerEngine's reference_nvfp4.py (_quantize_blockwise_4over6_reference) and quantize_4over6_nvfp4.cuh:
 * the binary32 steps by hand in exact integer arithmetic (TwoLevelOracleTest's, with addition added here),
 * E4M3 and E2M1 from their field definitions, no Java float arithmetic, FormatCodec or Converter.
 */
class FourOverSixOracleTest {

    /** The choices this oracle reads: the error measure, the tensor-scale maximum and the order of s's steps. */
    record Options(boolean mse, boolean headroom, boolean divideFirst) {
        float range() {
            return headroom ? 1536f : 2688f;
        }

        Map<String, String> asDecisions() {
            return Map.of("block-scale-choice", mse ? "four-over-six-mse" : "four-over-six-mae",
                    "tensor-scale-maximum", headroom ? "scale-256" : "largest-scale",
                    "tensor-scale-arithmetic", divideFirst ? "reciprocal-divide-first" : "reciprocal");
        }
    }

    /** x + y rounded to binary32, nearest even (an exact zero sum is +0 unless both are -0). */
    static float add(float x, float y) {
        if (Float.isNaN(x) || Float.isNaN(y) || (Float.isInfinite(x) && Float.isInfinite(y) && x != y)) {
            return Float.NaN;
        }
        if (Float.isInfinite(x) || Float.isInfinite(y)) {
            return Float.isInfinite(x) ? x : y;
        }
        HandBinary32.Exact a = HandBinary32.Exact.of(x);
        HandBinary32.Exact b = HandBinary32.Exact.of(y);
        int shift = Math.max(a.shift(), b.shift());
        BigInteger p = a.num().shiftLeft(shift - a.shift());
        BigInteger q = b.num().shiftLeft(shift - b.shift());
        BigInteger sum = (a.negative() ? p.negate() : p).add(b.negative() ? q.negate() : q);
        if (sum.signum() == 0) {
            return a.negative() && b.negative() ? -0f : 0f;
        }
        return shift >= 0 ? HandBinary32.round(sum.signum() < 0, sum.abs(), BigInteger.ONE.shiftLeft(shift))
                : HandBinary32.round(sum.signum() < 0, sum.abs().shiftLeft(-shift), BigInteger.ONE);
    }

    static float abs(float x) {
        return Float.intBitsToFloat(Float.floatToRawIntBits(x) & 0x7FFFFFFF);
    }

    /** One candidate: the scale code and 16 element codes under scale s, and its error. */
    record Candidate(int[] codes, float error) {
    }

    static Candidate candidate(float amax, float[] x, float s, float g, Options o) {
        int[] out = new int[17];
        out[0] = toE4m3(s, false);
        float scale = (float) e4m3(out[0]);
        float r = fminf(divide(1f, multiply(scale, divide(1f, g))), Float.MAX_VALUE);
        float error = 0f;
        for (int i = 0; i < 16; i++) {
            out[1 + i] = toE2m1(multiply(x[i], r));
            float d = add(divide(multiply(multiply(e2m1(out[1 + i]), scale), amax), o.range()), -x[i]);
            error = add(error, o.mse() ? multiply(d, d) : abs(d));
        }
        return new Candidate(out, error);
    }

    /** amax, then 16 values -> the scale code, then 16 element codes (elements 0 under a NaN scale); sixOnly: S6 always. */
    static int[] quantize(float amax, float[] x, Options o, boolean sixOnly) {
        float a = 0;
        for (float v : x) {
            if (Float.isNaN(v)) { // decision mx-nan's default: a NaN scale
                int[] nan = new int[17];
                nan[0] = 0x7F;
                return nan;
            }
            a = abs(v) > a ? abs(v) : a;
        }
        float g = fminf(divide(o.range(), amax), Float.MAX_VALUE);
        if (amax == 0 || g == 0) {
            g = 1f;
        }
        float s = o.divideFirst() ? multiply(divide(a, 6f), g) : multiply(a, multiply(g, divide(1f, 6f)));
        if (toE4m3(s, false) == 0x7F) {
            int[] nan = new int[17];
            nan[0] = 0x7F;
            return nan;
        }
        Candidate six = candidate(amax, x, s, g, o);
        Candidate four = candidate(amax, x, fminf(multiply(s, 1.5f), 448f), g, o);
        return four.error() < six.error() && !sixOnly ? four.codes() : six.codes(); // ties keep six (pick_map4 = err4 < err6)
    }

    static List<Options> allOptions() {
        List<Options> all = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            all.add(new Options((k & 1) != 0, (k & 2) != 0, (k & 4) != 0));
        }
        return all;
    }

    static BlockConverter converter(Options o) {
        Reference r = new Reference(TwoLevelOracleTest.CUDA, Semantics.of(TwoLevelOracleTest.CUDA, o.asDecisions()));
        return r.blockConverter(TwoLevelOracleTest.CUDA.blocks().get("nvfp4"), Rounding.RN, true);
    }

    static long[] quantizeByReference(BlockConverter c, float[] block) {
        long[] in = new long[17];
        for (int i = 0; i < 17; i++) {
            in[i] = bits(block[i]);
        }
        long[] out = new long[17];
        c.apply(in, 0, out, 0, 1);
        return out;
    }

    @TestFactory
    Stream<DynamicTest> fourOverSixAgreesUnderEachErrorMeasureMaximumAndOrder() {
        return allOptions().stream().map(o -> DynamicTest.dynamicTest(o.toString(), () -> {
            BlockConverter c = converter(o);
            SplittableRandom random = new SplittableRandom(20261205L);
            List<String> wrong = new ArrayList<>();
            int fours = 0;
            for (int n = 0; n < 3000; n++) {
                float[] block = TwoLevelOracleTest.valueBlock(random);
                long[] out = quantizeByReference(c, block);
                int[] want = quantize(block[0], Arrays.copyOfRange(block, 1, 17), o, false);
                fours += Arrays.equals(want, quantize(block[0], Arrays.copyOfRange(block, 1, 17), o, true)) ? 0 : 1;
                for (int i = 0; i < 17; i++) {
                    if (want[i] != out[i] && (i == 0 || want[0] != 0x7F)) {
                        wrong.add("block " + Arrays.toString(block) + " output " + i + ": oracle 0x"
                                + Integer.toHexString(want[i]) + ", reference 0x" + Long.toHexString(out[i]));
                        break;
                    }
                }
            }
            assertTrue(wrong.isEmpty(), wrong.size() + " blocks differ, e.g. " + wrong.stream().limit(3).toList());
            assertTrue(fours > 300 && fours < 2700, fours + " of 3000 blocks keep S4: the choice is not exercised");
        }));
    }

    @Test
    void theHandAdditionIsBinary32() {
        assertEquals(1f, add(0.5f, 0.5f));
        assertEquals(0x1p24f, add(0x1p24f, 1f)); // a tie, to even
        assertEquals(0x1p24f + 4f, add(0x1p24f + 2f, 1f)); // a tie, to even (up)
        assertEquals(Float.MIN_VALUE, add(Float.MIN_NORMAL, -Math.nextDown(Float.MIN_NORMAL)));
        assertEquals(0x0, Float.floatToRawIntBits(add(1f, -1f)));
        assertEquals(0x80000000, Float.floatToRawIntBits(add(-0f, -0f)));
    }

    /**
     * A worked block: A = 1536, so G = 1 under scale-256, block maximum 4: s = rn(4 / 6), S6 = E4M3 0.6875
     * (0x33) and S4 = rn(s x 1.5) = 1 (0x38). Under S4 the values 4, 2, 1, 0.5 and 3 are E2M1 values, error 0;
     * under S6 the 4 becomes 6 x 0.6875 = 4.125: 4over6 keeps S4, six keeps S6.
     */
    @Test
    void aBlockWhoseMaximumMapsToFour() {
        float[] block = {1536f, 4f, 2f, 1f, 0.5f, 3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        Options o = new Options(false, true, true);
        long[] out = quantizeByReference(converter(o), block);
        assertArrayEquals(new long[] {0x38, 0x6, 0x4, 0x2, 0x1, 0x5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, out); // S4 = 1
        Reference six = new Reference(TwoLevelOracleTest.CUDA, Semantics.of(TwoLevelOracleTest.CUDA,
                Map.of("tensor-scale-maximum", "scale-256", "tensor-scale-arithmetic", "reciprocal-divide-first")));
        long[] sixOut = quantizeByReference(six.blockConverter(TwoLevelOracleTest.CUDA.blocks().get("nvfp4"), Rounding.RN,
                true), block);
        assertEquals(0x33, sixOut[0]);
        assertEquals(0x7, sixOut[1]);
    }
}
