package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The scale rounding of vLLM's MXFP4 MoE kernel (vllm-project/vllm PR 43557, nvfp4_utils.cuh): the block
 * maximum's binary32 bits plus 2^21, the mantissa then dropped, so that a maximum of at least 1.75 x 2^e
 * takes the scale of 2^(e+1); the scale's exponent is that exponent minus 2, E2M1's emax. Written here from
 * that code, it is the ocp-mx profile's mx-scale=even for MXFP4 (E2M1's one mantissa bit rounds the maximum
 * up at the same point, 1.75 being a tie that goes up), on every maximum tried; for MXFP8 E4M3 it is none of
 * the four readings, which is why the profile needs no fifth option for it and says so in decisions.csv.
 */
class MxScaleThresholdTest {

    static final int EMAX_E2M1 = 2;

    /** vLLM's scale exponent for a block maximum (a positive normal float below 1.75 x 2^127). */
    static int threshold(float amax, int emax) {
        int rounded = (Float.floatToRawIntBits(amax) + (1 << 21)) & 0xFF800000;
        return Math.max((rounded >>> 23) - 127 - emax, -127);
    }

    /** Block maxima: both sides of 1.75 x 2^e and of the other binade points in every binade, and seeded floats. */
    static List<Float> maxima() {
        List<Float> list = new ArrayList<>();
        for (int e = -126; e <= 126; e++) {
            for (double m : new double[] {1.0, 1.25, 1.5, 1.75}) {
                float f = (float) Math.scalb(m, e);
                list.add(f);
                list.add(Math.nextDown(f));
                list.add(Math.nextUp(f));
            }
        }
        SplittableRandom random = new SplittableRandom(43557);
        for (int i = 0; i < 20000; i++) {
            list.add(Float.intBitsToFloat(0x00800000 + random.nextInt(0x7F600000 - 0x00800000)));
        }
        return list;
    }

    /** The scale code the reference gives a block whose largest magnitude is amax (the other values smaller). */
    static long scaleCode(Reference reference, String block, float amax) {
        BlockFormat format = reference.tables().blocks().get(block);
        BlockConverter c = reference.blockConverter(format, Rounding.RN, true);
        long[] in = new long[format.size()];
        for (int i = 0; i < in.length; i++) {
            in[i] = Float.floatToRawIntBits(i == 7 ? amax : (float) (-(double) amax * i / 64)) & 0xFFFFFFFFL;
        }
        long[] out = new long[format.size() + 1];
        c.apply(in, 0, out, 0, 1);
        return out[0];
    }

    static Reference reading(String option) {
        Reference mx = MxBlockOracleTest.MX;
        return new Reference(mx.tables(), Semantics.of(mx.tables(), Map.of("mx-scale", option)));
    }

    @Test
    void vllmsThresholdIsTheEvenReadingForMxfp4() {
        Reference even = reading("even");
        List<String> wrong = new ArrayList<>();
        int roundedUp = 0;
        for (float amax : maxima()) {
            long want = threshold(amax, EMAX_E2M1) + 127;
            long got = scaleCode(even, "mxfp4_e2m1", amax);
            if (got != want && wrong.size() < 8) {
                wrong.add(amax + ": vLLM 0x" + Long.toHexString(want) + ", mx-scale=even 0x" + Long.toHexString(got));
            }
            roundedUp += want != Math.getExponent(amax) - EMAX_E2M1 + 127 ? 1 : 0;
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertTrue(roundedUp > 1000, "maxima the threshold rounds up: " + roundedUp);
        // and the OCP text's floor differs there: the decision matters for this kernel
        assertEquals(0x7F - 2 + 1, threshold(1.75f, EMAX_E2M1) + 127);
        assertNotEquals(scaleCode(reading("floor"), "mxfp4_e2m1", 1.75f), scaleCode(even, "mxfp4_e2m1", 1.75f));
    }

    @Test
    void forMxfp8TheThresholdIsNoneOfTheReadings() {
        // E4M3 keeps 1.75 and 1.875 (even stays in the binade at 1.8, the threshold leaves it); ceil leaves it at
        // 1.25; rceil (amax above 448 x 2^(e-8)) parts from the threshold only at 1.75 x 2^e itself
        for (String option : List.of("floor", "even", "ceil", "rceil")) {
            Reference r = reading(option);
            boolean differs = false;
            for (float amax : new float[] {1.8f, 1.25f, 1.75f}) {
                differs |= scaleCode(r, "mxfp8_e4m3", amax) != threshold(amax, 8) + 127;
            }
            assertTrue(differs, "mx-scale=" + option + " gives vLLM's threshold on MXFP8 at 1.25, 1.75 and 1.8");
        }
    }
}
