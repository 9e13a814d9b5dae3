package convcert.reference;

import static convcert.reference.HandBinary32.E2M1;
import static convcert.reference.HandBinary32.bits;
import static convcert.reference.HandBinary32.e2m1Below;
import static convcert.reference.HandBinary32.toE2m1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
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
 * NVFP4 under stochastic rounding (rs, cuda's blocks.csv): each element's 8 random bits decide it as IEEE P3109's
 * StochasticA defines, written here from that definition and not from the reference: with v the fraction of the
 * way from the E2M1 value below to the one above, the element rounds away from zero iff floor(v x 2^8) + R >=
 * 2^8. The block's scale and the scaled values come from TwoLevelOracleTest's hand binary32 recipes.
 */
class StochasticBlockOracleTest {

    /** E2M1 under StochasticA with 8 random bits r; NaN gives 7 (decision finite-nan), beyond 6 saturates. */
    static int toE2m1Stochastic(float q, int r) {
        return toE2m1(q, (v, lo) -> discarded(v, lo) + r >= 256);
    }

    /** floor(v x 2^8), v the fraction of the step above E2M1 value lo (exact: the steps are powers of two). */
    static int discarded(double v, int lo) {
        return (int) Math.floor((v - E2M1[lo]) / (E2M1[lo + 1] - E2M1[lo]) * 256);
    }

    static BlockConverter stochastic(TwoLevelOracleTest.Options o) {
        Reference r = new Reference(TwoLevelOracleTest.CUDA, Semantics.of(TwoLevelOracleTest.CUDA,
                Map.of("tensor-scale-arithmetic", o.arithmetic(), "stochastic-rounding", "stochastic-a")));
        BlockFormat nvfp4 = TwoLevelOracleTest.CUDA.blocks().get("nvfp4");
        return r.blockConverter(nvfp4, Rounding.RS, true);
    }

    @Test
    void theRandomBitsFollowTheValuesOnePerValue() {
        BlockConverter c = stochastic(new TwoLevelOracleTest.Options("reciprocal", false, false, false, false, false));
        assertEquals(1 + 16 + 16, c.inputsPerBlock());
        assertEquals("uint8", c.inputFormat(17).name());
        assertEquals("float", c.inputFormat(16).name());
    }

    /** A = 2688 and a block maximum of 6: S = 1 and every value is its own scaled value. 0.75 is halfway from 0.5 to 1. */
    @Test
    void aWorkedBlock() {
        BlockConverter c = stochastic(new TwoLevelOracleTest.Options("reciprocal", false, false, false, false, false));
        long[] in = new long[33];
        in[0] = bits(2688f);
        in[1] = bits(6f);
        in[2] = bits(0.75f);
        in[3] = bits(0.75f);
        in[4] = bits(-2.5f); // halfway from 2 to 3
        in[5] = bits(-2.5f);
        in[6] = bits(5.5f); // three quarters of the way from 4 to 6
        in[7] = bits(5.5f);
        in[8] = bits(0.25f); // half of the subnormal step 0.5
        int[] r = {255, 127, 128, 127, 128, 63, 64, 128};
        for (int i = 0; i < r.length; i++) {
            in[17 + i] = r[i];
        }
        long[] out = new long[17];
        c.apply(in, 0, out, 0, 1);
        assertArrayEquals(new long[] {0x38, 0x7, 0x1, 0x2, 0xC, 0xD, 0x6, 0x7, 0x1}, Arrays.copyOf(out, 9));
    }

    @TestFactory
    Stream<DynamicTest> quantizationAgreesUnderEveryArithmetic() {
        return TwoLevelOracleTest.ARITHMETICS.stream().map(a -> DynamicTest.dynamicTest(a, () -> {
            var o = new TwoLevelOracleTest.Options(a, false, false, false, false, false);
            BlockConverter c = stochastic(o);
            SplittableRandom random = new SplittableRandom(20261207L);
            List<String> wrong = new ArrayList<>();
            long[] in = new long[33];
            long[] out = new long[17];
            int decided = 0;
            for (int n = 0; n < 3000; n++) {
                float[] block = TwoLevelOracleTest.valueBlock(random);
                float[] values = Arrays.copyOfRange(block, 1, 17);
                float[] scaled = new float[16];
                TwoLevelOracleTest.quantize(block[0], values, o, (i, q) -> {
                    scaled[i] = q;
                    return toE2m1(q);
                });
                int[] r = new int[16];
                for (int i = 0; i < 16; i++) { // random, or at the carry boundary the oracle finds, or one below it
                    int at = threshold(scaled[i]);
                    r[i] = at < 0 || i % 3 == 0 ? random.nextInt(256) : at - (i % 3 == 1 ? 0 : 1);
                    decided += at < 0 ? 0 : 1;
                }
                int[] want = TwoLevelOracleTest.quantize(block[0], values, o, (i, q) -> toE2m1Stochastic(q, r[i]));
                for (int i = 0; i < 17; i++) {
                    in[i] = bits(block[i]);
                }
                for (int i = 0; i < 16; i++) {
                    in[17 + i] = r[i];
                }
                c.apply(in, 0, out, 0, 1);
                for (int i = 0; i < 17; i++) {
                    if (want[i] != out[i] && (i == 0 || want[0] != 0x7F)) {
                        wrong.add("block " + Arrays.toString(block) + " random " + Arrays.toString(r) + " output " + i
                                + ": oracle 0x" + Integer.toHexString(want[i]) + ", reference 0x" + Long.toHexString(out[i]));
                        break;
                    }
                }
            }
            assertTrue(wrong.isEmpty(), wrong.size() + " blocks differ, e.g. " + wrong.stream().limit(3).toList());
            assertTrue(decided > 10_000, "random bits decide only " + decided + " elements");
        }));
    }

    /** The least random bits that round q away from zero, or -1 where none do (exact, beyond 6, NaN, too near below). */
    static int threshold(float q) {
        double v = Math.abs((double) q);
        if (Float.isNaN(q) || v >= 6) {
            return -1;
        }
        int lo = e2m1Below(v);
        int d = E2M1[lo] == v ? 0 : discarded(v, lo); // below 2^-8 of a step no 8 random bits carry
        return d == 0 ? -1 : 256 - d;
    }
}
