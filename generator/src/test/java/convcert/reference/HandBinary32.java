package convcert.reference;

import java.math.BigInteger;

/**
 * binary32 arithmetic, E4M3 and E2M1 done by hand for the NVFP4 oracles (TwoLevelOracleTest,
 * FourOverSixOracleTest): exact integer arithmetic rounded to nearest even, values from the formats'
 * field definitions; no Java float arithmetic, FormatCodec or Converter.
 */
final class HandBinary32 {

    private HandBinary32() {
    }

    // ---- binary32 arithmetic by hand ----------------------------------------------------------

    /** A finite binary32 value as sign * num / 2^shift (shift may be negative). */
    record Exact(boolean negative, BigInteger num, int shift) {
        static Exact of(float f) {
            int bits = Float.floatToRawIntBits(f);
            int e = (bits >>> 23) & 0xFF;
            int m = bits & 0x7FFFFF;
            BigInteger n = BigInteger.valueOf(e == 0 ? m : m | 0x800000);
            return new Exact(bits < 0, n, e == 0 ? 149 : 150 - e);
        }

        boolean zero() {
            return num.signum() == 0;
        }
    }

    /** sign * p / q (p, q > 0) rounded to binary32, nearest even, overflowing to infinity. */
    static float round(boolean negative, BigInteger p, BigInteger q) {
        if (p.signum() == 0) {
            return negative ? -0f : 0f;
        }
        int e = p.bitLength() - q.bitLength(); // 2^e <= p/q < 2^(e+1), after one correction
        if (compareScaled(p, q, e) < 0) {
            e--;
        }
        int quantum = Math.max(e, -126) - 23;
        BigInteger num = quantum >= 0 ? p : p.shiftLeft(-quantum);
        BigInteger den = quantum >= 0 ? q.shiftLeft(quantum) : q;
        BigInteger[] qr = num.divideAndRemainder(den);
        long n = qr[0].longValueExact();
        int half = qr[1].shiftLeft(1).compareTo(den);
        if (half > 0 || (half == 0 && (n & 1) == 1)) {
            n++;
        }
        // n * 2^quantum: n < 2^25, so the float below is exact unless it overflows
        if (quantum + 64 - Long.numberOfLeadingZeros(n) > 128) {
            return negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        float magnitude = Math.scalb((float) n, quantum);
        return negative ? -magnitude : magnitude;
    }

    /** Compares p/q with 2^e. */
    static int compareScaled(BigInteger p, BigInteger q, int e) {
        return e >= 0 ? p.compareTo(q.shiftLeft(e)) : p.shiftLeft(-e).compareTo(q);
    }

    static float multiply(float x, float y) {
        if (Float.isNaN(x) || Float.isNaN(y)) {
            return Float.NaN;
        }
        boolean negative = (Float.floatToRawIntBits(x) ^ Float.floatToRawIntBits(y)) < 0;
        if (Float.isInfinite(x) || Float.isInfinite(y)) {
            boolean zero = x == 0 || y == 0;
            return zero ? Float.NaN : negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        Exact a = Exact.of(x);
        Exact b = Exact.of(y);
        BigInteger p = a.num().multiply(b.num());
        int shift = a.shift() + b.shift();
        return shift >= 0 ? round(negative, p, BigInteger.ONE.shiftLeft(shift))
                : round(negative, p.shiftLeft(-shift), BigInteger.ONE);
    }

    static float divide(float x, float y) {
        if (Float.isNaN(x) || Float.isNaN(y) || (x == 0 && y == 0) || (Float.isInfinite(x) && Float.isInfinite(y))) {
            return Float.NaN;
        }
        boolean negative = (Float.floatToRawIntBits(x) ^ Float.floatToRawIntBits(y)) < 0;
        if (Float.isInfinite(x) || y == 0) {
            return negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        if (Float.isInfinite(y) || x == 0) {
            return negative ? -0f : 0f;
        }
        Exact a = Exact.of(x);
        Exact b = Exact.of(y);
        // (na / 2^sa) / (nb / 2^sb) = na * 2^sb / (nb * 2^sa)
        BigInteger p = a.num().shiftLeft(Math.max(0, b.shift() - a.shift()));
        BigInteger q = b.num().shiftLeft(Math.max(0, a.shift() - b.shift()));
        return round(negative, p, q);
    }

    /** CUDA's fminf. */
    static float fminf(float a, float b) {
        return Float.isNaN(a) ? b : Float.isNaN(b) ? a : a <= b ? a : b;
    }

    // ---- E4M3 and E2M1 from their field definitions -------------------------------------------------

    /** OCP E4M3 (bias 7, no infinity, S.1111.111 NaN): the magnitude of a code, or NaN. */
    static double e4m3(int code) {
        int e = (code >> 3) & 0xF;
        int m = code & 7;
        if (e == 15 && m == 7) {
            return Double.NaN;
        }
        double magnitude = e == 0 ? m * Math.pow(2, -9) : (8 + m) * Math.pow(2, e - 10);
        return (code & 0x80) != 0 ? -magnitude : magnitude;
    }

    /** s (not negative, or NaN) to E4M3, nearest even or up, saturating at 448; NaN to 0x7F. */
    static int toE4m3(float s, boolean up) {
        if (Float.isNaN(s)) {
            return 0x7F;
        }
        if (s >= 448) {
            return 0x7E;
        }
        int lo = 0;
        while (lo < 0x7E && e4m3(lo + 1) <= s) {
            lo++;
        }
        if (e4m3(lo) == s) {
            return lo;
        }
        if (up) {
            return lo + 1;
        }
        double mid = (e4m3(lo) + e4m3(lo + 1)) / 2;
        return s > mid || (s == mid && (lo & 1) == 1) ? lo + 1 : lo;
    }

    static final double[] E2M1 = {0, 0.5, 1, 1.5, 2, 3, 4, 6};

    /** Whether a magnitude v strictly between E2M1 values lo and lo + 1 rounds to lo + 1. */
    interface E2m1Up {
        boolean up(double v, int lo);
    }

    /** q to E2M1, nearest even, saturating at 6; NaN to +6 (decision finite-nan). */
    static int toE2m1(float q) {
        return toE2m1(q, (v, lo) -> {
            double mid = (E2M1[lo] + E2M1[lo + 1]) / 2;
            return v > mid || (v == mid && (lo & 1) == 1);
        });
    }

    /** q to E2M1, an inexact magnitude rounding up where up says, saturating at 6; NaN to +6. */
    static int toE2m1(float q, E2m1Up up) {
        if (Float.isNaN(q)) {
            return 7;
        }
        int sign = Float.floatToRawIntBits(q) < 0 ? 8 : 0;
        double v = Math.abs((double) q);
        int lo = e2m1Below(v);
        if (lo == 7 || E2M1[lo] == v) {
            return sign | lo;
        }
        return sign | (up.up(v, lo) ? lo + 1 : lo);
    }

    /** The index of the largest E2M1 value at most the magnitude v. */
    static int e2m1Below(double v) {
        int lo = 0;
        while (lo < 7 && E2M1[lo + 1] <= v) {
            lo++;
        }
        return lo;
    }

    static float e2m1(int code) {
        float v = (float) E2M1[code & 7];
        return (code & 8) != 0 ? -v : v;
    }

    static long bits(float f) {
        return Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
    }
}
