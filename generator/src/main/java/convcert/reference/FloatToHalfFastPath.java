package convcert.reference;

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

    static boolean covers(Case c, Semantics s) {
        return c.conversion().from().name().equals("float") && c.conversion().to().name().equals("half")
                && c.rounding() == Rounding.RN && c.saturation() != Saturation.WRAP
                && s.nanEncoding() == Semantics.NanEncoding.PRESERVE
                && s.subnormalResults() == Semantics.SubnormalResults.KEEP;
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
