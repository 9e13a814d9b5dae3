package convcert.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The scale layouts of tensors.csv against an independent derivation: cuBLAS's swizzled layout as
 * torchao's to_blocked writes it, step by step (pad the grid to 128 x 4, view it as (row tiles, 128,
 * column tiles, 4), permute to (row tiles, column tiles, 128, 4), view as (-1, 4, 32, 4), transpose the
 * middle axes, flatten), and AMD's pre-shuffled layout as aiter's e8m0_shuffle writes it, done here on
 * index arrays by a generic permute, not by the layouts' formulas.
 */
class TensorShapeTest {

    /** Permutes a contiguous row-major array of shape to the axes order, contiguous again. */
    static int[] permute(int[] data, int[] shape, int[] order) {
        int n = data.length;
        int[] strides = new int[shape.length];
        for (int k = shape.length - 1, s = 1; k >= 0; s *= shape[k], k--) {
            strides[k] = s;
        }
        int[] out = new int[n];
        int[] index = new int[shape.length];
        for (int flat = 0; flat < n; flat++) {
            int rest = flat;
            for (int k = order.length - 1; k >= 0; k--) { // flat walks the permuted shape, last axis fastest
                index[k] = rest % shape[order[k]];
                rest /= shape[order[k]];
            }
            int from = 0;
            for (int k = 0; k < order.length; k++) {
                from += index[k] * strides[order[k]];
            }
            out[flat] = data[from];
        }
        return out;
    }

    /** torchao's to_blocked on a grid of block ids (outer x inner, row-major): the id at each stored slot, -1 padding. */
    static int[] toBlocked(int outer, int inner) {
        int rowTiles = (outer + 127) / 128;
        int columnTiles = (inner + 3) / 4;
        int[] padded = new int[rowTiles * 128 * columnTiles * 4];
        Arrays.fill(padded, -1);
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                padded[o * columnTiles * 4 + i] = o * inner + i;
            }
        }
        int[] tiles = permute(padded, new int[] {rowTiles, 128, columnTiles, 4}, new int[] {0, 2, 1, 3});
        return permute(tiles, new int[] {rowTiles * columnTiles, 4, 32, 4}, new int[] {0, 2, 1, 3});
    }

    /**
     * aiter's e8m0_shuffle on a grid of block ids (outer x inner, row-major): pad to (256, 8) multiples, view as
     * (outer / 32, 2, 16, inner / 8, 2, 4), permute to (0, 3, 5, 2, 4, 1), flatten; -1 padding.
     */
    static int[] e8m0Shuffle(int outer, int inner) {
        int sm = (outer + 255) / 256 * 256;
        int sn = (inner + 7) / 8 * 8;
        int[] padded = new int[sm * sn];
        Arrays.fill(padded, -1);
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                padded[o * sn + i] = o * inner + i;
            }
        }
        return permute(padded, new int[] {sm / 32, 2, 16, sn / 8, 2, 4}, new int[] {0, 3, 5, 2, 4, 1});
    }

    private static TensorShape shape(int rows, int columns, TensorShape.Along along, TensorShape.ScaleLayout layout) {
        BlockFormat block = TestProfile.reference("ocp-mx").tables().blocks().get("mxfp8_e4m3");
        return new TensorShape(block, rows, columns, along, layout, null);
    }

    @Test
    void theShuffledLayoutIsAitersE8m0Shuffle() {
        storesEachScaleWhereTheDerivationDoes(TensorShape.ScaleLayout.SHUFFLED_256X8, TensorShapeTest::e8m0Shuffle,
                new int[][] {{1, 32}, {5, 72}, {260, 96}, {256, 256}, {513, 300}, {33, 1000}});
    }

    @Test
    void theSwizzledLayoutIsTorchaosToBlocked() {
        storesEachScaleWhereTheDerivationDoes(TensorShape.ScaleLayout.SWIZZLED_128X4, TensorShapeTest::toBlocked,
                new int[][] {{1, 32}, {5, 72}, {128, 128}, {130, 136}, {257, 300}, {33, 1000}});
    }

    /** Every block's scale at the slot where the derivation (outer, inner -> the block id at each slot) puts it. */
    private static void storesEachScaleWhereTheDerivationDoes(TensorShape.ScaleLayout layout,
                                                              BiFunction<Integer, Integer, int[]> derivation, int[][] shapes) {
        for (int[] s : shapes) {
            for (TensorShape.Along along : TensorShape.Along.values()) {
                TensorShape t = shape(s[0], s[1], along, layout);
                int[] derived = derivation.apply(t.outer(), t.inner());
                assertEquals(derived.length, t.scales(), s[0] + "x" + s[1] + " " + along);
                for (int o = 0; o < t.outer(); o++) {
                    for (int i = 0; i < t.inner(); i++) {
                        assertEquals(o * t.inner() + i, derived[t.scaleSlot(o, i)], s[0] + "x" + s[1] + " " + along + " (" + o
                                + ", " + i + ")");
                    }
                }
            }
        }
    }

    @Test
    void thePlainLayoutIsTheScaleTensorInTheDatasOrientation() {
        TensorShape rows = shape(5, 72, TensorShape.Along.ROW, TensorShape.ScaleLayout.PLAIN);
        assertEquals(15, rows.scales()); // [5][3]
        assertEquals(2 * 3 + 1, rows.scaleSlot(2, 1));
        TensorShape columns = shape(72, 33, TensorShape.Along.COLUMN, TensorShape.ScaleLayout.PLAIN);
        assertEquals(3 * 33, columns.scales()); // [3][33]: TransformerEngine's columnwise scale_inv
        assertEquals(2 * 33 + 7, columns.scaleSlot(7, 2)); // column 7, its third block
        Set<Integer> slots = new HashSet<>();
        for (int o = 0; o < columns.outer(); o++) {
            for (int i = 0; i < columns.inner(); i++) {
                slots.add(columns.scaleSlot(o, i));
            }
        }
        assertEquals(columns.scales(), slots.size(), "every slot holds one block's scale");
    }

    @Test
    void aBlockCoversItsAxisAndThePartialBlockStopsAtTheEdge() {
        TensorShape t = shape(72, 33, TensorShape.Along.COLUMN, TensorShape.ScaleLayout.PLAIN);
        assertEquals(3, t.inner()); // 72 rows: 32 + 32 + 8
        assertEquals(5 * 33 + 4, t.position(4, 0, 5)); // column 4, row 5
        assertEquals(71 * 33 + 4, t.position(4, 2, 7)); // the partial block's last value: row 71
        assertEquals(-1, t.position(4, 2, 8));
        TensorShape r = shape(5, 72, TensorShape.Along.ROW, TensorShape.ScaleLayout.PLAIN);
        assertEquals(3 * 72 + 64, r.position(3, 2, 0));
        assertEquals(-1, r.position(3, 2, 8));
        assertTrue(r.values() == 360 && r.blocks() == 15);
    }
}
