package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.TensorShape;
import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The golden rotated tensors hold only values whose rotation is exact in binary32 whatever the order of summation
 * (generator/COVERAGE.md, "Rotated tensors"): every block's rotated values summed in binary32 from the first term,
 * from the last and pairwise, with the 1/4 on each term or on the sum, equal the exact sum; and the values are
 * finite and no zero is negative.
 */
class RotatedCoverageTest {

    @ParameterizedTest
    @EnumSource(Level.class)
    void everyOrderOfSummationGivesTheExactRotation(Level level) {
        Reference reference = TestProfile.reference("cuda");
        BlockFormat f = reference.tables().blocks().get("nvfp4_t64x24_col_rht");
        TensorShape t = (TensorShape) f.extent();
        BlockCoverage.Blocks tensors = TensorCoverage.of(reference, f, t, true, level, 1);
        int blocks = 0;
        for (int k = 0; k < tensors.count(); k++) {
            int base = k * tensors.perBlock();
            for (int o = 0; o < t.outer(); o++) {
                for (int i = 0; i < t.inner(); i++) {
                    float[] terms = new float[16];
                    for (int j = 0; j < 16; j++) {
                        float[] x = new float[16];
                        BigDecimal exact = BigDecimal.ZERO;
                        for (int n = 0; n < 16; n++) {
                            x[n] = Float.intBitsToFloat((int) tensors.values()[base + t.position(o, i, n)]);
                            assertTrue(Float.isFinite(x[n]) && Float.floatToRawIntBits(x[n]) != 0x80000000, "finite, no -0");
                            int sign = t.rotation().sign(n) * (Integer.bitCount(n & j) % 2 == 0 ? 1 : -1);
                            terms[n] = sign * x[n] * 0.25f;
                            assertEquals(sign * (double) x[n] / 4, terms[n], 0.0, "each term exact");
                            exact = exact.add(new BigDecimal(sign * (double) x[n]));
                        }
                        float want = exact.divide(BigDecimal.valueOf(4)).floatValue();
                        assertEquals(want, exact.divide(BigDecimal.valueOf(4)).doubleValue(), 0.0, "the rotated value is a binary32");
                        float forward = 0;
                        float backward = 0;
                        float unscaled = 0;
                        for (int n = 0; n < 16; n++) {
                            forward += terms[n];
                            backward += terms[15 - n];
                            unscaled += terms[n] * 4;
                        }
                        assertEquals(want, forward);
                        assertEquals(want, backward);
                        assertEquals(want, unscaled / 4);
                        assertEquals(want, pairwise(terms, 0, 16));
                    }
                    blocks++;
                }
            }
        }
        assertEquals(tensors.count() * t.blocks(), blocks);
    }

    private static float pairwise(float[] terms, int from, int to) {
        return to - from == 1 ? terms[from] : pairwise(terms, from, (from + to) / 2) + pairwise(terms, (from + to) / 2, to);
    }
}
