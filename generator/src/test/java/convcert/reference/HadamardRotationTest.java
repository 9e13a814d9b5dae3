package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import convcert.spec.TensorShape;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rotated tensor (the cuda profile's nvfp4_t64x24_col_rht) quantizes as the same tensor unrotated would its
 * rotated values, the rotation computed here from TransformerEngine's definition, not the reference's code: H
 * built by Sylvester's doubling [[H, H], [H, -H]], the signs get_wgrad_sign_vector's list, y = x diag(d) H / 4
 * in double arithmetic (exact for the values used: each block's on a grid of 2^-15 of its largest binade).
 */
class HadamardRotationTest {

    static final float[] TE_SIGNS = {1, 1, 1, -1, 1, -1, -1, -1, -1, -1, -1, 1, -1, 1, -1, -1};

    static double[][] sylvester(int n) {
        double[][] h = {{1}};
        while (h.length < n) {
            int m = h.length;
            double[][] g = new double[2 * m][2 * m];
            for (int r = 0; r < m; r++) {
                for (int c = 0; c < m; c++) {
                    g[r][c] = g[r][c + m] = g[r + m][c] = h[r][c];
                    g[r + m][c + m] = -h[r][c];
                }
            }
            h = g;
        }
        return h;
    }

    /** x times the matrix (signs before H, after it, or none), over 4; each result checked exact in binary32. */
    static float[] rotate(float[] x, Semantics.RotationSigns where) {
        double[][] h = sylvester(16);
        float[] y = new float[16];
        for (int j = 0; j < 16; j++) {
            double sum = 0;
            for (int k = 0; k < 16; k++) {
                sum += x[k] * (where == Semantics.RotationSigns.INPUTS ? TE_SIGNS[k] : 1) * h[k][j];
            }
            double v = sum / 4 * (where == Semantics.RotationSigns.OUTPUTS ? TE_SIGNS[j] : 1);
            y[j] = (float) v;
            assertEquals(v, y[j], 0.0, "the test's rotation is exact");
        }
        return y;
    }

    /** A block of values a rotation keeps exact: 16-bit multiples of 2^(e - 15), e around 2^-20 to 2^20. */
    static float[] block(SplittableRandom random) {
        int e = random.nextInt(-20, 21);
        float[] y = new float[16];
        for (int j = 0; j < 16; j++) {
            y[j] = (float) Math.scalb((double) random.nextInt(-65535, 65536), e - 15);
        }
        return y;
    }

    static Reference cuda(Map<String, String> decisions) {
        SpecTables tables = TestProfile.reference("cuda").tables();
        return new Reference(tables, Semantics.of(tables, decisions));
    }

    @ParameterizedTest
    @ValueSource(strings = {"inputs", "outputs", "none"})
    void aRotatedTensorQuantizesItsRotatedValues(String signs) {
        Reference reference = cuda(Map.of("rotation-signs", signs));
        BlockFormat f = reference.tables().blocks().get("nvfp4_t64x24_col_rht");
        TensorShape t = (TensorShape) f.extent();
        assertEquals("hadamard-16:+++-+------+-+--", t.rotation().word());
        SplittableRandom random = new SplittableRandom(20261207);
        for (Rounding mode : f.modes()) {
            BlockConverter c = reference.blockConverter(f, mode, true);
            int lanes = mode.stochastic() ? t.values() : 0;
            long[] x = new long[t.values() + lanes];
            long[] y = new long[t.values() + lanes];
            for (int o = 0; o < t.outer(); o++) {
                for (int i = 0; i < t.inner(); i++) {
                    float[] xs = block(random);
                    float[] ys = rotate(xs, Semantics.RotationSigns.valueOf(signs.toUpperCase()));
                    for (int j = 0; j < 16; j++) {
                        x[t.position(o, i, j)] = Float.floatToRawIntBits(xs[j]) & 0xFFFFFFFFL;
                        y[t.position(o, i, j)] = Float.floatToRawIntBits(ys[j]) & 0xFFFFFFFFL;
                    }
                }
            }
            for (int k = 0; k < lanes; k++) {
                x[t.values() + k] = y[t.values() + k] = random.nextInt(256);
            }
            long[] rotated = new long[c.outputsPerBlock()];
            long[] given = new long[c.outputsPerBlock()];
            c.apply(x, 0, rotated, 0, 1);
            c.rotatedBy(false, true).apply(y, 0, given, 0);
            assertArrayEquals(given, rotated, signs + " " + mode);
        }
    }

    @Test
    void aNanOrInfinitySpreadsOverItsBlock() {
        convcert.spec.Rotation r = ((TensorShape) cuda(Map.of()).tables().blocks().get("nvfp4_t64x24_col_rht").extent()).rotation();
        HadamardRotation.Reading reading = new HadamardRotation.Reading(Semantics.RotationSigns.INPUTS, true);
        float[] x = new float[16];
        x[3] = Float.intBitsToFloat(0xFFC00123); // a negative NaN with a payload: the canonical one everywhere
        for (float v : HadamardRotation.rotate(x, r, reading)) {
            assertEquals(0x7FC00000, Float.floatToRawIntBits(v));
        }
        x[3] = 1;
        x[0] = Float.POSITIVE_INFINITY; // d_0 = +1 and row 0 of H all ones: +inf everywhere
        for (float v : HadamardRotation.rotate(x, r, reading)) {
            assertEquals(Float.POSITIVE_INFINITY, v);
        }
        x[1] = Float.POSITIVE_INFINITY; // row 1 alternates: inf + inf, then inf - inf
        float[] y = HadamardRotation.rotate(x, r, reading);
        for (int j = 0; j < 16; j++) {
            assertEquals(j % 2 == 0 ? Float.POSITIVE_INFINITY : Float.intBitsToFloat(0x7FC00000), y[j], "y" + j);
        }
    }

    @Test
    void anExactZeroIsPositiveAndATinyNegativeSumRoundsToMinusZero() {
        convcert.spec.Rotation r = new convcert.spec.Rotation(4, 0);
        HadamardRotation.Reading reading = new HadamardRotation.Reading(Semantics.RotationSigns.INPUTS, true);
        float[] y = HadamardRotation.rotate(new float[] {-0f, -0f, -0f, -0f}, r, reading);
        assertEquals(0, Float.floatToRawIntBits(y[0]), "every term -0: the exact sum 0, +0");
        float tiny = Float.MIN_VALUE;
        y = HadamardRotation.rotate(new float[] {-tiny, 0, 0, 0}, r, reading);
        assertEquals(0x80000000, Float.floatToRawIntBits(y[0]), "-2^-149 / 2 rounds to -0 (ties to even)");
        assertTrue(Float.floatToRawIntBits(y[1]) == 0x80000000);
    }
}
