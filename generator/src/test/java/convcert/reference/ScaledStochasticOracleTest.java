package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * gfx950's stochastic scaled conversions (the _sr_ forms: a value, an int8 scale exponent, random bits)
 * against an oracle of their own, never through the reference: the value divided by 2^k in double
 * arithmetic (exact: a float times 2^-128..2^127 is a double), the destination's values from its fields,
 * f the fraction of the unit in the last place above the largest value not above it, and the P3109 draft's
 * StochasticA with N bits, up iff floor(f 2^N) + R >= 2^N, which is what the host model's "add the aligned
 * random value to the mantissa, then truncate" computes. Beyond the range: E4M3 gives the NaN of the
 * value's sign, the others their largest value of its sign; a NaN, or the NaN scale -128, gives E4M3's
 * and E5M2's NaN and FP6's and FP4's largest value, with the value's sign.
 */
class ScaledStochasticOracleTest {

    static final Reference GFX950 = TestProfile.reference("gfx950");

    /** A destination by its fields; e4m3: S.1111.111 is NaN and overflow gives it; e5m2: it has NaN 0x7E. */
    record Element(String name, int e, int m, int bias, int randomBits, boolean e4m3, boolean e5m2) {

        long largest() {
            long top = (1L << e) - 1;
            return e4m3 ? top << m | ((1L << m) - 2) : e5m2 ? (top - 1) << m | ((1L << m) - 1) : top << m | ((1L << m) - 1);
        }

        double value(long code) {
            long field = code >> m;
            long mant = code & ((1L << m) - 1);
            return field == 0 ? Math.scalb((double) mant, 1 - bias - m) : Math.scalb((double) ((1L << m) | mant), (int) field - bias - m);
        }

        /** The unit in the last place at code (the gap to the next code of its binade). */
        double ulp(long code) {
            return Math.scalb(1.0, (int) Math.max(code >> m, 1) - bias - m);
        }

        long signBit() {
            return 1L << (e + m);
        }

        long overflow(long sign) {
            return e4m3 ? sign | 0x7F : sign | largest();
        }

        /**
         * Two E5M2 NaNs of one sign: the profile compares NaNs as NaNs (nan-comparison=any), and the reference
         * keeps a NaN's payload (nan-encoding=preserve) where the host model writes 0x7E.
         */
        boolean sameNan(long a, long b) {
            long field = ((1L << e) - 1) << m;
            return e5m2 && (a & signBit()) == (b & signBit()) && (a & field) == field && (b & field) == field
                    && (a & ((1L << m) - 1)) != 0 && (b & ((1L << m) - 1)) != 0;
        }

        long nan(long sign) {
            return e4m3 ? sign | 0x7F : e5m2 ? sign | 0x7E : sign | largest();
        }
    }

    static final List<Element> ELEMENTS = List.of(new Element("fp8_e4m3fn", 4, 3, 7, 20, true, false),
            new Element("fp8_e5m2", 5, 2, 15, 21, false, true), new Element("fp6_e2m3", 2, 3, 1, 20, false, false),
            new Element("fp6_e3m2", 3, 2, 3, 21, false, false), new Element("fp4_e2m1", 2, 1, 1, 22, false, false));

    /** The oracle: float bits x divided by 2^k, random bits r. */
    static long expected(Element d, int x, int k, long r) {
        long sign = x < 0 ? d.signBit() : 0;
        float f = Float.intBitsToFloat(x);
        if (Float.isNaN(f) || k == -128) {
            return d.nan(sign);
        }
        if (Float.isInfinite(f)) {
            return d.overflow(sign);
        }
        double a = Math.abs(Math.scalb((double) f, -k));
        long largest = d.largest();
        if (a >= d.value(largest) + d.ulp(largest)) {
            return d.overflow(sign);
        }
        long lo = 0; // the largest code whose value is at most a
        for (long step = Long.highestOneBit(largest); step > 0; step >>= 1) {
            if (lo + step <= largest && d.value(lo + step) <= a) {
                lo += step;
            }
        }
        double fraction = (a - d.value(lo)) / d.ulp(lo); // exact: a power-of-two gap, a and the value share its grid
        long top = (long) Math.floor(fraction * Math.scalb(1.0, d.randomBits));
        boolean up = fraction > 0 && top + r >= 1L << d.randomBits;
        if (!up) {
            return sign | lo;
        }
        return lo == largest ? d.overflow(sign) : sign | (lo + 1);
    }

    @TestFactory
    Stream<DynamicTest> everyElementAgreesWithTheOracle() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Element d : ELEMENTS) {
            tests.add(DynamicTest.dynamicTest(d.name, () -> {
                Conversion c = GFX950.conversion("float", d.name);
                assertEquals(d.randomBits, c.randomBits(), "random_bits of float->" + d.name);
                Converter converter = GFX950.converter(GFX950.resolve(c, Rounding.RS, c.forms(Rounding.RS).iterator().next(),
                        GFX950.tables().powerOnCtrl()));
                SplittableRandom random = new SplittableRandom(20261207L ^ d.name.hashCode());
                long full = 1L << d.randomBits;
                List<String> wrong = new ArrayList<>();
                int checked = 0;
                for (int i = 0; i < 60_000; i++) {
                    // values near the destination's range after scaling: binades from below its subnormals to above its top
                    int k = i % 97 == 0 ? -128 : random.nextInt(-20, 21);
                    int binade = k + random.nextInt(-d.bias - d.m - 4, (1 << d.e) - d.bias + 2);
                    int x = i % 50 == 0 ? random.nextInt() : Float.floatToRawIntBits(Math.scalb(1.0f + random.nextFloat(), binade))
                            | (random.nextBoolean() ? Integer.MIN_VALUE : 0);
                    double a = Math.abs(Math.scalb((double) Float.intBitsToFloat(x), -k));
                    long[] rs = {0, full - 1, random.nextLong(full), -1, -1};
                    if (Double.isFinite(a) && a < d.value(d.largest()) + d.ulp(d.largest())) { // at the carry boundary and one below
                        long lo = 0;
                        for (long step = Long.highestOneBit(d.largest()); step > 0; step >>= 1) {
                            if (lo + step <= d.largest() && d.value(lo + step) <= a) {
                                lo += step;
                            }
                        }
                        long top = (long) Math.floor((a - d.value(lo)) / d.ulp(lo) * Math.scalb(1.0, d.randomBits));
                        rs[3] = top > 0 ? full - top : -1;
                        rs[4] = top > 0 ? full - top - 1 : -1;
                    }
                    for (long r : rs) {
                        if (r < 0) {
                            continue;
                        }
                        long operand = converter.operands().withRandom(converter.operands().operand(x & 0xFFFFFFFFL, k & 0xFF), r);
                        long want = expected(d, x, k, r);
                        long got = converter.apply(operand);
                        checked++;
                        if (got != want && !d.sameNan(got, want) && wrong.size() < 5) {
                            wrong.add(String.format("0x%08X scale %d random 0x%X: oracle 0x%X, reference 0x%X", x, k, r, want, got));
                        }
                    }
                }
                assertTrue(wrong.isEmpty(), checked + " operands; " + String.join("; ", wrong));
            }));
        }
        return tests.stream();
    }
}
