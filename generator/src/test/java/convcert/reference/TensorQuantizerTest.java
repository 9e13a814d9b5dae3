package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import convcert.spec.TensorShape;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A tensor of tensors.csv converts as its blocks do on their own: each block gathered here from its row and
 * column by the definition (size consecutive values along the axis, the last block short, read as padded
 * with +0), converted as a block of blocks.csv, and found at its slot (rows, for the plain layout; the
 * swizzled one is held to torchao's to_blocked by TensorShapeTest). Padding slots hold the zero code.
 */
class TensorQuantizerTest {

    static final Reference MX = TestProfile.reference("ocp-mx");

    /** Random floats, each block's magnitudes around its own binade, a few NaN and infinities. */
    static long[] values(int n, SplittableRandom random) {
        long[] v = new long[n];
        for (int k = 0; k < n; k++) {
            int e = (k / 7) % 60 - 30;
            double x = random.nextDouble(-1, 1) * Math.scalb(1.0, e);
            int special = random.nextInt(400);
            v[k] = Float.floatToRawIntBits(special == 0 ? Float.NaN : special == 1 ? Float.NEGATIVE_INFINITY : (float) x)
                    & 0xFFFFFFFFL;
        }
        return v;
    }

    /** A two-level tensor's A: the largest magnitude of its values that are not NaN, in binary32. */
    static long amax(long[] in) {
        float a = 0f;
        for (long x : in) {
            float v = Float.intBitsToFloat((int) x);
            if (!Float.isNaN(v) && Math.abs(v) > a) {
                a = Math.abs(v);
            }
        }
        return Float.floatToRawIntBits(a) & 0xFFFFFFFFL;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"ocp-mx", "cuda"})
    void everyTensorConvertsAsItsBlocksDoAlone(String profile) {
        Reference reference = TestProfile.reference(profile);
        SplittableRandom random = new SplittableRandom(20261205);
        int checked = 0;
        for (BlockFormat f : reference.tables().blocks().values()) {
            if (!(f.extent() instanceof TensorShape t) || t.rotation() != null) { // a rotated tensor's blocks are of its rotated values: HadamardRotationTest
                continue;
            }
            for (Rounding mode : f.modes()) {
                BlockConverter tensor = reference.blockConverter(f, mode, true);
                BlockConverter block = reference.blockConverter(t.block(), mode, true);
                int lanes = mode.stochastic() ? t.values() : 0; // rs: a value's random bits after all the values
                long[] in = java.util.Arrays.copyOf(values(t.values(), random), t.values() + lanes);
                for (int k = 0; k < lanes; k++) {
                    in[t.values() + k] = random.nextInt(256);
                }
                long[] all = new long[tensor.outputsPerBlock()];
                tensor.apply(in, 0, all, 0, 1);
                int lead = f.twoLevel() ? 1 : 0; // A first, then the layout as for one level
                if (lead > 0) {
                    assertEquals(amax(in), all[0], f.name() + " A");
                }
                long[] out = java.util.Arrays.copyOfRange(all, lead, all.length);
                int size = t.block().size();
                boolean alongRow = t.along() == TensorShape.Along.ROW;
                int axis = alongRow ? t.columns() : t.rows();
                boolean[] used = new boolean[t.scales()];
                for (int o = 0; o < t.outer(); o++) {
                    for (int i = 0; i * size < axis; i++) {
                        long[] values = new long[lead + size + (lanes > 0 ? size : 0)]; // [A,] then +0 past the edge
                        values[0] = lead > 0 ? all[0] : values[0];
                        int[] at = new int[size];
                        for (int j = 0; j < size; j++) {
                            int a = i * size + j;
                            at[j] = a >= axis ? -1 : alongRow ? o * t.columns() + a : a * t.columns() + o;
                            values[lead + j] = at[j] < 0 ? 0 : in[at[j]];
                            if (lanes > 0) {
                                values[lead + size + j] = at[j] < 0 ? 0 : in[t.values() + at[j]];
                            }
                        }
                        long[] expected = new long[1 + size];
                        block.apply(values, 0, expected, 0, 1);
                        int slot = t.scaleSlot(o, i);
                        used[slot] = true;
                        assertEquals(expected[0], out[slot], f.name() + " " + mode + " scale of (" + o + ", " + i + ")");
                        for (int j = 0; j < size; j++) {
                            if (at[j] >= 0) {
                                assertEquals(expected[1 + j], out[t.scales() + at[j]], f.name() + " element " + at[j]);
                            }
                        }
                    }
                }
                for (int s = 0; s < used.length; s++) {
                    assertTrue(used[s] || out[s] == 0, f.name() + " padding slot " + s + " holds the zero code");
                }
                checked++;
            }
        }
        assertTrue(checked >= (profile.equals("cuda") ? 4 : 10), "tensor cases checked: " + checked);
    }

    @Test
    void dequantizingATensorInvertsItsLayout() {
        SplittableRandom random = new SplittableRandom(7);
        for (BlockFormat f : MX.tables().blocks().values()) {
            if (!(f.extent() instanceof TensorShape t) || t.rotation() != null) { // a rotated tensor's blocks are of its rotated values: HadamardRotationTest
                continue;
            }
            BlockConverter quantize = MX.blockConverter(f, Rounding.RN, true);
            BlockConverter dequantize = MX.blockConverter(f, Rounding.RN, false);
            BlockConverter block = MX.blockConverter(t.block(), Rounding.RN, false);
            long[] quantized = new long[quantize.outputsPerBlock()];
            quantize.apply(values(t.values(), random), 0, quantized, 0, 1);
            long[] back = new long[t.values()];
            dequantize.apply(quantized, 0, back, 0, 1);
            long[] one = new long[1 + t.block().size()];
            long[] values = new long[t.block().size()];
            for (int o = 0; o < t.outer(); o++) {
                for (int i = 0; i < t.inner(); i++) {
                    one[0] = quantized[t.scaleSlot(o, i)];
                    for (int j = 0; j < t.block().size(); j++) {
                        int p = t.position(o, i, j);
                        one[1 + j] = p < 0 ? 0 : quantized[t.scales() + p];
                    }
                    block.apply(one, 0, values, 0, 1);
                    for (int j = 0; j < t.block().size(); j++) {
                        int p = t.position(o, i, j);
                        if (p >= 0) {
                            assertEquals(values[j], back[p], f.name() + " value " + p);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aOneBlockTensorIsItsBlock() {
        BlockFormat f = MX.tables().blocks().get("mxfp8_e4m3_t1x32");
        BlockConverter tensor = MX.blockConverter(f, Rounding.RN, true);
        BlockConverter block = MX.blockConverter(((TensorShape) f.extent()).block(), Rounding.RN, true);
        long[] in = values(32, new SplittableRandom(3));
        long[] a = new long[33];
        long[] b = new long[33];
        tensor.apply(in, 0, a, 0, 1);
        block.apply(in, 0, b, 0, 1);
        assertArrayEquals(b, a);
        assertEquals("scale of row 0, block 0 (slot 0)", tensor.part(0));
        assertEquals("element [0, 5]", tensor.part(6));
    }
}
