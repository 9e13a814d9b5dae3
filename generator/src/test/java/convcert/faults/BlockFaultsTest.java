package convcert.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import convcert.TestProfile;
import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.reference.Reference;
import convcert.spec.Rounding;
import convcert.spec.TensorShape;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quantizer faults of faults.csv (mechanism block) do what their rows say, on MXFP4 blocks worked by hand
 * (E2M1's values 0, 0.5, 1, 1.5, 2, 3, 4, 6; emax 2; scale code 127 + s) and on a tensor's layout.
 */
class BlockFaultsTest {

    static final Reference MX = TestProfile.reference("ocp-mx");
    static final List<Fault> CATALOGUE = FaultCatalogue.load(TestProfile.home().resolve("spec-tables/faults.csv"));

    static BlockFunction fault(String id, BlockConverter c) {
        return BlockFaults.of(CATALOGUE.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow(), c);
    }

    static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xFFFFFFFFL;
    }

    static long[] mxfp4(BlockFunction h, long... values) {
        long[] in = new long[32];
        System.arraycopy(values, 0, in, 0, values.length);
        long[] out = new long[33];
        h.apply(in, 0, out, 0);
        return new long[] {out[0], out[1], out[2], out[32]};
    }

    @Test
    void aSignedMaximumScalesByTheLargestValueNotMagnitude() {
        BlockConverter c = MX.blockConverter(MX.tables().blocks().get("mxfp4_e2m1"), Rounding.RN, true);
        // right: amax 4 = 2^2, s = 0 (0x7F); -4 -> 0xE, 1 -> 0x2
        assertArrayEquals(new long[] {0x7F, 0xE, 0x2, 0}, mxfp4((in, i, out, o) -> c.apply(in, i, out, o, 1), f(-4f), f(1f)));
        // faulty: max(x) = 1, s = -2 (0x7D); -4 / 2^-2 = -16 saturates to -6 (0xF), 1 / 2^-2 = 4 (0x6)
        assertArrayEquals(new long[] {0x7D, 0xF, 0x6, 0}, mxfp4(fault("signed-maximum", c), f(-4f), f(1f)));
    }

    @Test
    void aMaximumThatSkipsTheLastValueLetsItSaturate() {
        BlockConverter c = MX.blockConverter(MX.tables().blocks().get("mxfp4_e2m1"), Rounding.RN, true);
        long[] in = new long[32];
        in[0] = f(1f);
        in[31] = f(24f); // right: amax 24, s = 2 (0x81): 1 / 4 = 0.25 -> 0 (a tie to even), 24 / 4 = 6 (0x7)
        long[] right = new long[33];
        c.apply(in, 0, right, 0, 1);
        assertEquals(0x81, right[0]);
        assertEquals(0x7, right[32]);
        long[] wrong = new long[33];
        fault("maximum-skips-last", c).apply(in, 0, wrong, 0); // amax 1: s = -2, 24 / 2^-2 = 96 saturates to 6
        assertEquals(0x7D, wrong[0]);
        assertEquals(0x6, wrong[1]);
        assertEquals(0x7, wrong[32]);
    }

    @Test
    void layoutFaultsMoveEachScaleAndOnlyApplyToTheSwizzledLayout() {
        BlockConverter swizzled = MX.blockConverter(MX.tables().blocks().get("mxfp8_e4m3_t130x136_sw"), Rounding.RN, true);
        TensorShape t = (TensorShape) swizzled.block().extent();
        long[] in = new long[t.values()];
        for (int p = 0; p < in.length; p++) {
            in[p] = f((float) Math.scalb(1.0 + p % 7, p % 23 - 11));
        }
        long[] right = new long[swizzled.outputsPerBlock()];
        swizzled.apply(in, 0, right, 0, 1);
        long[] rowMajor = new long[right.length];
        fault("scales-row-major", swizzled).apply(in, 0, rowMajor, 0);
        long[] interleaved = new long[right.length];
        fault("swizzle-row-order", swizzled).apply(in, 0, interleaved, 0);
        for (int o = 0; o < t.outer(); o++) {
            for (int i = 0; i < t.inner(); i++) {
                assertEquals(right[t.scaleSlot(o, i)], rowMajor[o * t.inner() + i]);
                assertEquals(right[t.scaleSlot(o, i)], interleaved[(o / 128 * 2 + i / 4) * 512 + (o % 32) * 4 + (o / 32 % 4) * 128
                        + i % 4]);
            }
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(right, t.scales(), right.length),
                java.util.Arrays.copyOfRange(rowMajor, t.scales(), right.length), "the elements are right");
        assertNull(fault("scales-row-major", MX.blockConverter(MX.tables().blocks().get("mxfp8_e4m3_t5x72"), Rounding.RN, true)));
        assertNull(fault("scales-row-major", MX.blockConverter(MX.tables().blocks().get("mxfp8_e4m3"), Rounding.RN, true)));
    }

    @Test
    void aPartialBlockThatReadsOnTakesTheNextRowsValues() {
        BlockConverter c = MX.blockConverter(MX.tables().blocks().get("mxfp8_e4m3_t5x72"), Rounding.RN, true);
        long[] in = new long[5 * 72];
        in[64] = f(1f); // row 0's partial block (columns 64..71): amax 1, s = -8 (E4M3's emax is 8): 0x77
        in[72] = f(256f); // row 1's first value, which the faulty block reads on to: amax 256, s = 0
        long[] right = new long[c.outputsPerBlock()];
        c.apply(in, 0, right, 0, 1);
        long[] wrong = new long[right.length];
        fault("partial-block-reads-on", c).apply(in, 0, wrong, 0);
        int slot = ((TensorShape) c.block().extent()).scaleSlot(0, 2);
        assertEquals(0x77, right[slot]);
        assertEquals(0x7F, wrong[slot]);
        right[slot] = wrong[slot];
        int element = ((TensorShape) c.block().extent()).scales() + 64; // 1.0 / 2^0 in E4M3: 0x38, not 1.0 / 2^-8 = 256 (0x78)
        assertEquals(0x78, right[element]);
        assertEquals(0x38, wrong[element]);
    }
}
