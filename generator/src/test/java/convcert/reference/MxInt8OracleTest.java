package convcert.reference;

import static convcert.reference.MxBlockOracleTest.MX;
import static convcert.reference.MxBlockOracleTest.bits;
import static convcert.reference.MxBlockOracleTest.blocks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * MXINT8 (OCP MX v1.0 Table 1) against an oracle of its own: an INT8 element is two's complement x 2^-6,
 * emax 0, largest 127/64; elements by double arithmetic and Math.rint, the scale from Math.getExponent.
 */
class MxInt8OracleTest {

    /** One INT8 element: value / 2^s times 64, rounded (rn: ties to even; rz), clamped to 127 and -127 or -128. */
    static long int8Element(float x, int s, boolean nearest, boolean twosComplement) {
        if (Float.isNaN(x)) {
            return 0x7F; // decision finite-nan: the largest positive value
        }
        double n = Math.abs(Math.scalb((double) x, 6 - s));
        n = nearest ? Math.rint(n) : Math.floor(n);
        boolean negative = Float.floatToRawIntBits(x) < 0;
        long k = (long) Math.min(n, negative && twosComplement ? 128 : 127);
        return (negative ? -k : k) & 0xFF;
    }

    @TestFactory
    Stream<DynamicTest> floatsToInt8BlocksAgreeWithTheOracle() {
        MxBlockOracleTest.Element shape = new MxBlockOracleTest.Element("mx_int8", 0, 6, 0, 0x7F, "mxint8"); // for randomBlock's tie shapes only
        return Stream.of("symmetric", "twos-complement").flatMap(minimum -> Stream.of("floor", "rceil").flatMap(rule ->
                Stream.of("rn", "rz").map(mode -> DynamicTest.dynamicTest("fixed-minimum=" + minimum + " mx-scale=" + rule
                        + " float->mxint8 " + mode, () -> {
                    Reference r = new Reference(MX.tables(), Semantics.of(MX.tables(), Map.of("fixed-minimum", minimum,
                            "mx-scale", rule)));
                    BlockConverter c = r.blockConverter(r.tables().blocks().get("mxint8"), Rounding.parse(mode), true);
                    List<String> wrong = new ArrayList<>();
                    long[] out = new long[33];
                    for (float[] block : blocks(shape, 11)) {
                        c.apply(bits(block), 0, out, 0, 1);
                        double amax = 0;
                        for (float x : block) {
                            amax = Math.max(amax, Math.abs((double) x));
                        }
                        int e = Math.getExponent(amax);
                        int scale = amax == 0 ? -127 : rule.equals("floor") ? e : e + (amax > Math.scalb(127 / 64.0, e) ? 1 : 0);
                        scale = Math.max(scale, -127);
                        if (out[0] != scale + 127) {
                            wrong.add("scale: oracle 2^" + scale + ", reference 0x" + Long.toHexString(out[0]));
                            continue;
                        }
                        for (int i = 0; i < 32; i++) {
                            long want = int8Element(block[i], scale, mode.equals("rn"), minimum.equals("twos-complement"));
                            if (out[1 + i] != want) {
                                wrong.add("element " + i + " (" + block[i] + ", scale 2^" + scale + "): oracle 0x"
                                        + Long.toHexString(want) + ", reference 0x" + Long.toHexString(out[1 + i]));
                            }
                        }
                        if (wrong.size() > 5) {
                            break;
                        }
                    }
                    assertTrue(wrong.isEmpty(), () -> String.join("\n", wrong));
                }))));
    }

    @Test
    void int8BlocksToFloatsAreTheExactProductNarrowed() {
        BlockConverter c = MX.blockConverter(MX.tables().blocks().get("mxint8"), Rounding.RN, false);
        long[] out = new long[32];
        for (int scale : new int[] {0x00, 0x01, 0x20, 0x7F, 0x80, 0xC0, 0xFD, 0xFE, 0xFF}) {
            for (int first = 0; first < 256; first += 32) {
                long[] in = new long[33];
                in[0] = scale;
                for (int i = 0; i < 32; i++) {
                    in[1 + i] = first + i;
                }
                c.apply(in, 0, out, 0, 1);
                for (int i = 0; i < 32; i++) {
                    int code = first + i;
                    float want = scale == 0xFF ? Float.NaN : (float) ((byte) code / 64.0 * Math.scalb(1.0, scale - 127));
                    float got = Float.intBitsToFloat((int) out[i]);
                    assertTrue(Float.isNaN(want) ? Float.isNaN(got) : Float.floatToRawIntBits(want) == (int) out[i],
                            "scale 0x" + Integer.toHexString(scale) + " code 0x" + Integer.toHexString(code) + ": oracle "
                                    + want + ", reference " + got);
                }
            }
        }
    }

    @Test
    void handWorkedInt8Block() {
        // amax 1.5 (binade 0, emax 0): scale 2^0 (0x7F); 1.5 x 64 = 96 (0x60); 2^-7 x 64 = 0.5 ties to even, 0.
        float[] block = new float[32];
        block[0] = 1.5f;
        block[1] = -1.49f;
        block[2] = 0.0078125f;
        block[3] = 0.0234375f; // 1.5 / 64: ties to even, 2 (0x02)
        long[] out = new long[33];
        MX.blockConverter(MX.tables().blocks().get("mxint8"), Rounding.RN, true).apply(bits(block), 0, out, 0, 1);
        assertEquals(0x7F, out[0]);
        assertEquals(0x60, out[1]);
        assertEquals(0xA1, out[2], "-1.49 x 64 = -95.36: -95, two's complement 0xA1");
        assertEquals(0x00, out[3]);
        assertEquals(0x02, out[4]);
        // a block whose largest magnitude is negative and rounds to -128 x 2^-6 = -2: 0x81 or, two's complement, 0x80
        block = new float[32];
        block[0] = -1.995f;
        for (String[] row : new String[][] {{"symmetric", "81"}, {"twos-complement", "80"}}) {
            Reference r = new Reference(MX.tables(), Semantics.of(MX.tables(), Map.of("fixed-minimum", row[0])));
            r.blockConverter(MX.tables().blocks().get("mxint8"), Rounding.RN, true).apply(bits(block), 0, out, 0, 1);
            assertEquals(0x7F, out[0]);
            assertEquals(row[1], Long.toHexString(out[1]), row[0]);
        }
    }
}
