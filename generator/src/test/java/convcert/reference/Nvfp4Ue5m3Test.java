package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import convcert.TestProfile;
import convcert.spec.Rounding;
import org.junit.jupiter.api.Test;

/**
 * NVFP4 with NVIDIA's UE5M3 block scale (the cuda profile's nvfp4_ue5m3 row), worked by hand from
 * TransformerEngine's figure: a tensor maximum of 12 gives the global scale 6 x 114688 / 12 = 57344. With
 * rn(1/6) = 0x3E2AAAAB, G x rn(1/6) = 9557.333984375; a block maximum of 3 gives s = 28672.001953125, UE5M3
 * 28672 (0xEE: exponent 29, mantissa 6), and the elements are x times 1 / (28672 x rn(1/57344)) = 2; a block
 * maximum of 12 gives s = 114688.0078125, saturated to 114688 (0xFE), elements times 0.5. Dequantized, the
 * factor (S x 12) x rn(1/688128) is 0.5 and 2 exactly. The independent implementation is
 * suite/devices/nvfp4-python (--scale ue5m3), certified in Nvfp4Test.
 */
class Nvfp4Ue5m3Test {

    static final Reference CUDA = TestProfile.reference("cuda");

    private static long[] run(boolean toBlock, long... in) {
        var converter = CUDA.blockConverter(CUDA.tables().blocks().get("nvfp4_ue5m3"), Rounding.RN, toBlock);
        long[] out = new long[toBlock ? 17 : 16];
        long[] padded = java.util.Arrays.copyOf(in, toBlock ? 17 : 18);
        converter.apply(padded, 0, out, 0, 1);
        return out;
    }

    private static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xFFFFFFFFL;
    }

    @Test
    void aBlockOfThreeUnderATensorOfTwelveTakesScale28672() {
        long[] out = run(true, f(12f), f(3f), f(-1.5f), f(0.25f));
        assertArrayEquals(new long[] {0xEE, 0x7, 0xD, 0x1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, out);
        long[] back = run(false, f(12f), 0xEE, 0x7, 0xD, 0x1);
        assertArrayEquals(new long[] {f(3f), f(-1.5f), f(0.25f), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, back);
    }

    @Test
    void theTensorsLargestBlockSaturatesToTheLargestScale() {
        long[] out = run(true, f(12f), f(12f), f(3f));
        assertArrayEquals(new long[] {0xFE, 0x7, 0x3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, out);
        long[] back = run(false, f(12f), 0xFE, 0x7, 0x3);
        assertArrayEquals(new long[] {f(12f), f(3f), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, back);
    }
}
