package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.Saturation;

/**
 * Fast path for float -> half, round to nearest even: the JDK's Float.floatToFloat16 (an intrinsic on
 * x86 with F16C) for the rounding, then this profile's rules for what the JDK does differently: a NaN
 * becomes quiet with its leading payload bits (decision nan-encoding=preserve), and saturation maps
 * infinity to the largest finite value and NaN to 0. ConversionBenchmark showed the generic path at
 * about 1/100 of the JDK's speed; FastPathTest checks this path against the generic one.
 */
final class FloatToHalfFastPath {

    private FloatToHalfFastPath() {
    }

    /**
     * Whether a case is what this path computes, judged from the format rows, not their names:
     * IEEE binary32 to IEEE binary16, nearest even, NaNs preserved, subnormals kept, and under
     * saturation a NaN giving 0 (sat_nan=zero).
     */
    static boolean covers(Case c, Semantics s) {
        Format to = c.conversion().to();
        return ieee(c.conversion().from(), 32, 8, 127) && ieee(to, 16, 5, 15)
                && c.rounding() == Rounding.RN && c.saturation() != Saturation.WRAP
                && (c.saturation() != Saturation.SAT || "zero".equals(to.satNan()))
                && s.get(Semantics.NAN_ENCODING) == Semantics.NanEncoding.PRESERVE
                && s.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.KEEP;
    }

    private static boolean ieee(Format f, int width, int exponentBits, int bias) {
        return f.layout() == Layout.IEEE && f.width() == width && f.exponentBits() == exponentBits && f.bias() == bias;
    }

    static void apply(long[] in, int inOffset, long[] out, int outOffset, int count, boolean saturating) {
        for (int i = 0; i < count; i++) {
            int f = (int) in[inOffset + i];
            int h = Float.floatToFloat16(Float.intBitsToFloat(f)) & 0xFFFF;
            boolean nan = (f & 0x7FFFFFFF) > 0x7F800000;
            int quietNan = (f >>> 16 & 0x8000) | 0x7E00 | (f >>> 13 & 0x3FF);
            int finite = saturating && (h & 0x7FFF) == 0x7C00 ? h - 1 : h;
            out[outOffset + i] = nan ? (saturating ? 0 : quietNan) : finite;
        }
    }
}
