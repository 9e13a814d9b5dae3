package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Arm FEAT_FP8's scaled conversions against an oracle of their own, written from the Arm ARM: values
 * from the field definitions, the scale applied in double arithmetic (exact here: every value times
 * 2^-128..2^127 is a double), the nearest destination value by search with a tie to the even code,
 * and A1.5.5's rules outside the range (a value beyond the largest normal number after rounding with an
 * unbounded exponent, or an infinity, gives with its sign the largest normal number under FPMR.OSC=1,
 * else NaN for E4M3 and infinity for E5M2; a NaN gives the default NaN, sign 0). FP8 to half and
 * bfloat16: every value with every scale; half and bfloat16 to FP8: every value with 65 scales; float:
 * 300,000 seeded values and scales. Nothing here uses FormatCodec.
 */
class ScaledOracleTest {

    static final Reference ARM = TestProfile.reference("arm");

    /** A binary format by its fields; e4m3: OFP8 E4M3, no infinity, S.1111.111 the only NaN of a sign. */
    record Fields(String name, int exponentBits, int mantissaBits, boolean e4m3) {
        int bias() {
            return (1 << (exponentBits - 1)) - 1;
        }

        int width() {
            return 1 + exponentBits + mantissaBits;
        }

        long signBit() {
            return 1L << (width() - 1);
        }

        boolean isNan(long code) {
            long e = (code >> mantissaBits) & ((1L << exponentBits) - 1);
            long m = code & ((1L << mantissaBits) - 1);
            return e4m3 ? e == (1L << exponentBits) - 1 && m == (1L << mantissaBits) - 1
                    : e == (1L << exponentBits) - 1 && m != 0;
        }

        boolean isInfinite(long code) {
            return !e4m3 && (code & (signBit() - 1)) == ((1L << exponentBits) - 1) << mantissaBits;
        }

        /** The value of a finite code. */
        double value(long code) {
            long e = (code >> mantissaBits) & ((1L << exponentBits) - 1);
            long m = code & ((1L << mantissaBits) - 1);
            double magnitude = e == 0 ? Math.scalb((double) m, 1 - bias() - mantissaBits)
                    : Math.scalb((double) ((1L << mantissaBits) | m), (int) e - bias() - mantissaBits);
            return (code & signBit()) != 0 ? -magnitude : magnitude;
        }

        long largestNormal() {
            long top = (1L << exponentBits) - 1;
            return e4m3 ? top << mantissaBits | ((1L << mantissaBits) - 2) : (top - 1) << mantissaBits | ((1L << mantissaBits) - 1);
        }

        /** Table A1-8 with FPCR.AH=0. */
        long defaultNan() {
            return e4m3 ? 0x7F : ((1L << exponentBits) - 1) << mantissaBits | 1L << (mantissaBits - 1);
        }
    }

    static final Fields FLOAT = new Fields("float", 8, 23, false);
    static final Fields HALF = new Fields("half", 5, 10, false);
    static final Fields BFLOAT16 = new Fields("bfloat16", 8, 7, false);
    static final Fields E4M3 = new Fields("fp8_e4m3fn", 4, 3, true);
    static final Fields E5M2 = new Fields("fp8_e5m2", 5, 2, false);

    /** The oracle: source code x scaled by 2^k into d; osc: FPMR.OSC. */
    static long expected(Fields s, Fields d, long x, int k, boolean osc) {
        long sign = (x & s.signBit()) != 0 ? d.signBit() : 0;
        if (s.isNan(x)) {
            return d.defaultNan();
        }
        boolean fp8 = d.width() == 8;
        long overflow = osc ? sign | d.largestNormal() : d.e4m3 ? sign | 0x7F : sign | ((1L << d.exponentBits) - 1) << d.mantissaBits;
        if (s.isInfinite(x)) {
            return fp8 ? overflow : sign | ((1L << d.exponentBits) - 1) << d.mantissaBits;
        }
        double a = Math.abs(Math.scalb(s.value(x), k));
        double max = d.value(d.largestNormal());
        double half = (max - d.value(d.largestNormal() - 1)) / 2; // half a unit in the largest binade
        if (a > max + half || (a == max + half && (d.largestNormal() & 1) != 0)) {
            return overflow; // beyond the largest normal number after rounding with an unbounded exponent
        }
        long lo = 0; // the largest code whose value is at most a (codes grow with values)
        long hi = d.largestNormal();
        while (lo < hi) {
            long mid = (lo + hi + 1) >>> 1;
            if (d.value(mid) <= a) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if (lo == d.largestNormal() || d.value(lo) == a) {
            return sign | lo;
        }
        double below = a - d.value(lo);
        double above = d.value(lo + 1) - a;
        long code = below < above ? lo : below > above ? lo + 1 : (lo & 1) == 0 ? lo : lo + 1;
        return sign | code;
    }

    private static DynamicTest check(Fields s, Fields d, Form form, long[] inputs, int[] scales) {
        return DynamicTest.dynamicTest(s.name + "->" + d.name + " " + form.tableName() + " (" + inputs.length + " operands)", () -> {
            Conversion c = ARM.conversion(s.name, d.name);
            Converter converter = ARM.converter(ARM.resolve(c, Rounding.RN, form, ARM.tables().powerOnCtrl()));
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < inputs.length; i++) {
                long want = expected(s, d, inputs[i], c.scale().exponent(scales[i]), form == Form.SAT);
                long got = converter.apply(converter.operands().operand(inputs[i], c.scale().code(scales[i])));
                if (got != want && wrong.size() < 5) {
                    wrong.add(String.format("0x%X scale %d: oracle 0x%X, reference 0x%X", inputs[i], scales[i], want, got));
                }
            }
            assertTrue(wrong.isEmpty(), String.join("; ", wrong));
        });
    }

    @TestFactory
    Stream<DynamicTest> widening() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Fields s : List.of(E4M3, E5M2)) {
            for (Fields d : List.of(HALF, BFLOAT16)) {
                int n = d == HALF ? 16 : 64; // LSCALE[3:0], LSCALE[5:0]
                long[] in = new long[256 * n];
                int[] k = new int[256 * n];
                for (int i = 0; i < in.length; i++) {
                    in[i] = i % 256;
                    k[i] = i / 256;
                }
                tests.add(check(s, d, Form.NOSAT, in, k));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> narrowing() {
        List<Integer> some = new ArrayList<>(List.of(-128, -127, -64, 64, 127));
        for (int k = -30; k <= 30; k++) {
            some.add(k);
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Fields s : List.of(HALF, BFLOAT16, FLOAT)) {
            long[] in;
            int[] k;
            if (s == FLOAT) {
                SplittableRandom random = new SplittableRandom(23);
                in = new long[300_000];
                k = new int[in.length];
                for (int i = 0; i < in.length; i++) { // log-uniform magnitudes near FP8's range, and any bits
                    in[i] = i % 2 == 0 ? random.nextLong(1L << 32)
                            : Float.floatToRawIntBits(Math.scalb(1 + random.nextFloat(), random.nextInt(-40, 40))) & 0xFFFFFFFFL
                            | (random.nextBoolean() ? 0x80000000L : 0);
                    k[i] = random.nextInt(-128, 128);
                }
            } else {
                in = new long[65536 * some.size()];
                k = new int[in.length];
                for (int i = 0; i < in.length; i++) {
                    in[i] = i % 65536;
                    k[i] = some.get(i / 65536);
                }
            }
            for (Fields d : List.of(E4M3, E5M2)) {
                for (Form form : List.of(Form.NOSAT, Form.SAT)) {
                    tests.add(check(s, d, form, in, k));
                }
            }
        }
        return tests.stream();
    }

    /** The oracle's own anchors, from A1.5.5 and Table A1-8, so that it cannot agree with the reference by a shared slip. */
    @TestFactory
    Stream<DynamicTest> oracleAnchors() {
        return Stream.of(
                DynamicTest.dynamicTest("464 ties to 448 (even), 465 overflows to NaN", () -> {
                    assertEquals(0x7E, expected(FLOAT, E4M3, Float.floatToRawIntBits(464f), 0, false));
                    assertEquals(0x7F, expected(FLOAT, E4M3, Float.floatToRawIntBits(465f), 0, false));
                    assertEquals(0xFF, expected(FLOAT, E4M3, Float.floatToRawIntBits(-465f), 0, false));
                    assertEquals(0xFE, expected(FLOAT, E4M3, Float.floatToRawIntBits(-465f), 0, true));
                }),
                DynamicTest.dynamicTest("E5M2: 61440 ties up (57344 is odd) and overflows to infinity", () -> {
                    assertEquals(0x7C, expected(FLOAT, E5M2, Float.floatToRawIntBits(61440f), 0, false));
                    assertEquals(0x7B, expected(FLOAT, E5M2, Float.floatToRawIntBits(61439f), 0, false));
                }),
                DynamicTest.dynamicTest("the scale before the one rounding: 1.5 x 2^-10 to 2^-9", () ->
                        assertEquals(0x01, expected(FLOAT, E4M3, Float.floatToRawIntBits(1.5f), -10, false))),
                DynamicTest.dynamicTest("default NaNs", () -> {
                    assertEquals(0x7E00, expected(E4M3, HALF, 0xFF, 0, false));
                    assertEquals(0x7FC0, expected(E5M2, BFLOAT16, 0xFD, -3, false));
                }));
    }
}
