package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import convcert.TestProfile;
import convcert.spec.Format;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The p3109 profile against an oracle written from the draft's definitions, sharing nothing with the
 * reference: each format's values from K, P, signedness and domain (section 3), a projection as
 * RoundToPrecision (round the exact value to P significant bits, no smaller quantum than the smallest
 * normal binade's, no upper bound) then Saturate (the July 2026 table: imandra-ai/ieee-p3109's
 * executable model) then Encode, in double arithmetic (exact for these inputs). Every half and
 * bfloat16 input and seeded floats go to every 8-bit and 4-bit format in every projection; every code comes back
 * to binary32 exactly and to binary16 and bfloat16 under rn by the JDK's own conversion. The stochastic
 * modes take seeded random bits beside each input (0 and all ones among them).
 */
class P3109OracleTest {

    static final Reference P3109 = TestProfile.reference("p3109");

    enum Sat { SATFINITE, SATPROPAGATE, SATNONE }

    /** binary{K}p{P}{s}{d} by the definition: code to value, and the sorted positive finite values. */
    record Binary(int k, int p, boolean signed, boolean extended) {
        String name() {
            return "binary" + k + "p" + p + (signed ? "s" : "u") + (extended ? "e" : "f");
        }

        int nan() {
            return signed ? 1 << (k - 1) : (1 << k) - 1;
        }

        int bias() {
            return 1 << (signed ? k - p - 1 : k - p);
        }

        /** The largest finite code: 2^(K-1)-2 or -1 signed (extended, finite), 2^K-3 or -2 unsigned. */
        int maxCode() {
            return (signed ? (1 << (k - 1)) : (1 << k) - 1) - (extended ? 2 : 1);
        }

        double value(int code) {
            if (code == nan()) {
                return Double.NaN;
            }
            boolean negative = signed && (code >> (k - 1)) != 0;
            int magnitude = signed ? code & ((1 << (k - 1)) - 1) : code;
            if (extended && magnitude == maxCode() + 1) {
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            int t = p - 1;
            int e = magnitude >> t;
            int m = magnitude & ((1 << t) - 1);
            double v = e == 0 ? Math.scalb((double) m, 1 - bias() - t) : Math.scalb((double) ((1 << t) | m), e - bias() - t);
            return negative ? -v : v;
        }

        double max() {
            return value(maxCode());
        }

        /** The code of a value of the format (the one zero, infinities, NaN). */
        int encode(double v) {
            if (Double.isNaN(v)) {
                return nan();
            }
            if (v == 0) {
                return 0;
            }
            Integer code = CODES.computeIfAbsent(this, f -> {
                Map<Double, Integer> codes = new java.util.HashMap<>();
                for (int c = 0; c < 1 << f.k(); c++) {
                    if (c != f.nan()) {
                        codes.put(f.value(c), c);
                    }
                }
                return codes;
            }).get(v);
            if (code == null) {
                throw new AssertionError(v + " is no value of " + name());
            }
            return code;
        }
    }

    static final Map<Binary, Map<Double, Integer>> CODES = new java.util.concurrent.ConcurrentHashMap<>();

    static List<Binary> all() {
        List<Binary> formats = new ArrayList<>();
        for (int k : new int[] {8, 4}) { // the profile's family rows p3109-k8 and p3109-k4
            for (boolean signed : new boolean[] {true, false}) {
                for (boolean extended : new boolean[] {true, false}) {
                    for (int p = 1; p <= (signed ? k - 1 : k); p++) {
                        formats.add(new Binary(k, p, signed, extended));
                    }
                }
            }
        }
        return formats;
    }

    /**
     * RoundToPrecision: x (finite, nonzero) to P significant bits, the quantum no finer than 2^(1-bias-(P-1));
     * the stochastic modes away from zero by their definitions with N = bits random bits r (StochasticX(min(P,
     * 16)), the draft's conformance plan): v the discarded fraction of a unit in the last
     * place, A iff floor(v 2^N) + r >= 2^N, B iff floor(v 2^(N+1)) + 2r + 1 >= 2^(N+1), C iff
     * RNITE(v 2^N) + r >= 2^N.
     */
    static double roundToPrecision(Binary f, double x, Rounding mode, long random, int bits) {
        boolean negative = x < 0;
        double a = Math.abs(x);
        int t = f.p() - 1;
        int e = Math.max(Math.getExponent(a), 1 - f.bias());
        double quantum = Math.scalb(1.0, e - t);
        double n = a / quantum; // exact: a power-of-two scaling
        double floor = Math.floor(n);
        double fraction = n - floor;
        // CodeIsEven: IsEven(floor(S)) if P > 1; (floor(S) = 0) or IsEven(Q + B) if P = 1 (Q = e - t, B the bias)
        boolean codeIsEven = f.p() > 1 ? ((long) floor & 1) == 0 : floor == 0 || ((e - t + f.bias()) & 1) == 0;
        boolean up = switch (mode) {
            case RN -> fraction > 0.5 || fraction == 0.5 && !codeIsEven;
            case RNA -> fraction >= 0.5;
            case RZ -> false;
            case RU -> fraction > 0 && !negative;
            case RD -> fraction > 0 && negative;
            case RO -> fraction > 0 && codeIsEven;
            case RSA -> Math.floor(Math.scalb(fraction, bits)) + random >= Math.scalb(1.0, bits);
            case RSB -> Math.floor(Math.scalb(fraction, bits + 1)) + 2 * random + 1 >= Math.scalb(1.0, bits + 1);
            case RSC -> Math.rint(Math.scalb(fraction, bits)) + random >= Math.scalb(1.0, bits);
            default -> throw new IllegalArgumentException(mode.toString());
        };
        double r = (floor + (up ? 1 : 0)) * quantum;
        return negative ? -r : r;
    }

    /** Saturate (July 2026): what a rounded value, or an infinity, becomes; NaN where the table says NaN. */
    static double saturate(Binary f, double r, Sat sat, Rounding mode) {
        double hi = f.max();
        double lo = f.signed() ? -hi : 0;
        if (r >= lo && r <= hi) {
            return r;
        }
        boolean signedExtended = f.signed() && f.extended();
        return switch (sat) {
            case SATFINITE -> r < lo ? lo : hi;
            case SATPROPAGATE -> r == Double.POSITIVE_INFINITY ? (f.extended() ? r : hi)
                    : r == Double.NEGATIVE_INFINITY ? (signedExtended ? r : lo) : r < lo ? lo : hi;
            case SATNONE -> {
                if (r == Double.POSITIVE_INFINITY) {
                    yield f.extended() ? r : Double.NaN;
                }
                if (r == Double.NEGATIVE_INFINITY) {
                    yield signedExtended ? r : Double.NaN;
                }
                if (r < lo) {
                    yield mode == Rounding.RZ || mode == Rounding.RU ? lo : signedExtended ? Double.NEGATIVE_INFINITY : Double.NaN;
                }
                if (mode == Rounding.RZ || mode == Rounding.RD || mode == Rounding.RO && !f.signed() && f.extended()) {
                    yield hi;
                }
                yield f.extended() ? Double.POSITIVE_INFINITY : Double.NaN;
            }
        };
    }

    /** n: the stochastic modes' random bits (StochasticX(min(P, 16)), P of the source if P3109, else of f). */
    static int project(Binary f, double x, Rounding mode, Sat sat, long random, int n) {
        if (Double.isNaN(x)) {
            return f.nan();
        }
        double r = Double.isInfinite(x) || x == 0 ? x : roundToPrecision(f, x, mode, random, n);
        return f.encode(saturate(f, r, sat, mode));
    }

    static final List<Rounding> MODES = List.of(Rounding.RN, Rounding.RNA, Rounding.RU, Rounding.RD, Rounding.RZ, Rounding.RO,
            Rounding.RSA, Rounding.RSB, Rounding.RSC);

    @Test
    void theOracleHasTheDraftsValues() {
        // research field-2026.md and the draft's examples: binary8p4se max 224 (OCP E4M3's 448 / 2), 1.0 at 0x40;
        // binary8p3se is E5M2FNUZ's range (max 49152 extended, 57344 finite); unsigned 1.0 at 0x80.
        assertEquals(224.0, new Binary(8, 4, true, true).max());
        assertEquals(240.0, new Binary(8, 4, true, false).max());
        assertEquals(49152.0, new Binary(8, 3, true, true).max());
        assertEquals(57344.0, new Binary(8, 3, true, false).max());
        assertEquals(1.0, new Binary(8, 4, true, true).value(0x40));
        assertEquals(1.0, new Binary(8, 3, false, true).value(0x80));
        assertEquals(Double.NEGATIVE_INFINITY, new Binary(8, 3, true, true).value(0xFF));
        assertEquals(Double.POSITIVE_INFINITY, new Binary(8, 3, false, true).value(0xFE));
        assertEquals(0x1p-17, new Binary(8, 3, true, true).value(0x01));
        assertEquals(0x1p126, new Binary(8, 1, false, false).value(0xFE));
    }

    @Test
    void theFamilyRowExpandsToEveryFormatOfTheDraft() {
        List<String> names = P3109.tables().formats().stream().map(Format::name).filter(n -> n.matches("binary\\d+p\\d+[su][ef]")).sorted().toList();
        assertEquals(all().stream().map(Binary::name).sorted().toList(), names);
        for (Binary b : all()) {
            FormatCodec codec = P3109.codec(P3109.tables().findFormat(b.name()));
            for (int code = 0; code < 1 << b.k(); code++) {
                Decoded d = codec.decode(code);
                double v = switch (d.kind()) {
                    case NAN -> Double.NaN;
                    case ZERO -> 0.0;
                    case INFINITE -> d.negative() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                    case FINITE -> (d.negative() ? -1 : 1) * Math.scalb((double) d.significand(), d.exponent());
                };
                assertEquals(b.value(code), v, b.name() + " code " + Integer.toHexString(code));
            }
        }
    }

    /** Every half and bfloat16 input into every 8-bit format in every projection. */
    @TestFactory
    Stream<DynamicTest> sixteenBitSourcesAgreeEverywhere() {
        return Stream.of("half", "bfloat16").map(source -> DynamicTest.dynamicTest(source + " -> binary8* and binary4*", () -> {
            double[] inputs = new double[1 << 16];
            for (int bits = 0; bits < 1 << 16; bits++) {
                inputs[bits] = source.equals("half") ? Float.float16ToFloat((short) bits) : Float.intBitsToFloat(bits << 16);
            }
            long[] codes = IntStream.range(0, 1 << 16).asLongStream().toArray();
            compareAll(source, inputs, codes);
        }));
    }

    @Test
    void seededFloatsAgreeEverywhere() {
        SplittableRandom random = new SplittableRandom(3109);
        int n = 20_000;
        long[] codes = new long[n];
        double[] inputs = new double[n];
        int[] specials = {0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x80000001, 0x7F7FFFFF};
        for (int i = 0; i < n; i++) {
            int bits = i < specials.length ? specials[i] : random.nextInt();
            codes[i] = bits & 0xFFFFFFFFL;
            inputs[i] = Float.intBitsToFloat(bits);
        }
        compareAll("float", inputs, codes);
    }

    private static void compareAll(String source, double[] inputs, long[] codes) {
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        all().parallelStream().forEach(f -> {
            for (Rounding mode : MODES) {
                for (Sat sat : Sat.values()) {
                    Converter c = P3109.converter(P3109.resolve(source, f.name(), mode.suffix(), sat.name().toLowerCase(),
                            P3109.ctrl("")));
                    long[] got = new long[codes.length];
                    long[] random = new long[codes.length]; // the stochastic modes' random bits: seeded, the extremes first
                    long[] operands = codes.clone();
                    if (mode.stochastic()) {
                        SplittableRandom bits = new SplittableRandom(f.name().hashCode() * 31L + mode.ordinal());
                        for (int i = 0; i < codes.length; i++) {
                            random[i] = i % 7 == 0 ? 0 : i % 7 == 1 ? (1L << c.operands().randomBits()) - 1 : bits.nextLong(1L << c.operands().randomBits());
                            operands[i] = c.operands().operand(codes[i], random[i]);
                        }
                        assertEquals(f.p(), c.operands().randomBits(), "StochasticX(min(P, 16))");
                    }
                    c.apply(operands, got);
                    for (int i = 0; i < codes.length && failures.size() < 20; i++) {
                        int want = project(f, inputs[i], mode, sat, random[i], f.p());
                        if (got[i] != want) {
                            failures.add(source + "->" + f.name() + " " + mode.suffix() + " " + sat + " 0x"
                                    + Long.toHexString(codes[i]) + " random 0x" + Long.toHexString(random[i]) + ": reference 0x" + Long.toHexString(got[i]) + ", draft 0x"
                                    + Integer.toHexString(want));
                        }
                    }
                }
            }
        });
        if (!failures.isEmpty()) {
            fail(failures.size() + " disagreements, first: " + String.join("\n", failures));
        }
    }

    /** Back to the IEEE formats: binary32 exactly; binary16 and bfloat16 under rn by the JDK's rounding. */
    @Test
    void everyCodeConvertsBack() {
        for (Binary f : all()) {
            for (Sat sat : Sat.values()) {
                String form = sat.name().toLowerCase();
                Converter toFloat = P3109.converter(P3109.resolve(f.name(), "float", "rn", form, P3109.ctrl("")));
                Converter toHalf = P3109.converter(P3109.resolve(f.name(), "half", "rn", form, P3109.ctrl("")));
                Converter toBf16 = P3109.converter(P3109.resolve(f.name(), "bfloat16", "rn", form, P3109.ctrl("")));
                for (int code = 0; code < 1 << f.k(); code++) {
                    double v = f.value(code);
                    String what = f.name() + " 0x" + Integer.toHexString(code) + " " + form;
                    float wide = (float) v;
                    if (Double.isNaN(v)) {
                        assertEquals(0x7FC00000L, toFloat.apply(code), what);
                        assertEquals(0x7E00L, toHalf.apply(code), what);
                        assertEquals(0x7FC0L, toBf16.apply(code), what);
                        continue;
                    }
                    assertEquals(v, wide, what + ": binary32 holds every 8- and 4-bit value");
                    boolean infinite = Double.isInfinite(v);
                    float f32 = sat == Sat.SATFINITE && infinite ? Math.copySign(Float.MAX_VALUE, wide) : wide;
                    assertEquals(Float.floatToRawIntBits(f32) & 0xFFFFFFFFL, toFloat.apply(code), what);
                    long half = Float.floatToFloat16(wide) & 0xFFFF;
                    long bf16 = rneBfloat16(wide);
                    boolean clamp = sat == Sat.SATFINITE || sat == Sat.SATPROPAGATE && !infinite;
                    if (clamp && (half & 0x7FFF) == 0x7C00) {
                        half = half & 0x8000 | 0x7BFF;
                    }
                    if (clamp && (bf16 & 0x7FFF) == 0x7F80) {
                        bf16 = bf16 & 0x8000 | 0x7F7F;
                    }
                    assertEquals(half, toHalf.apply(code), what + " -> half");
                    assertEquals(bf16, toBf16.apply(code), what + " -> bfloat16");
                }
            }
        }
    }

    /** float to bfloat16, nearest even, by integer arithmetic on the bits (no NaN here). */
    static long rneBfloat16(float x) {
        int bits = Float.floatToRawIntBits(x);
        return ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16) & 0xFFFF;
    }

    /** Convert between P3109 formats (the conformance plan's binary8p3se and binary8p4se): every code, every projection. */
    @Test
    void convertBetweenP3109FormatsAgrees() {
        Binary p3 = new Binary(8, 3, true, true);
        Binary p4 = new Binary(8, 4, true, true);
        List<String> failures = new ArrayList<>();
        for (Binary[] pair : new Binary[][] {{p3, p4}, {p4, p3}}) {
            for (Rounding mode : MODES) {
                for (Sat sat : Sat.values()) {
                    Converter c = P3109.converter(P3109.resolve(pair[0].name(), pair[1].name(), mode.suffix(),
                            sat.name().toLowerCase(), P3109.ctrl("")));
                    if (mode.stochastic()) {
                        assertEquals(pair[0].p(), c.operands().randomBits(), "StochasticX(min(P, 16)) of the source");
                    }
                    SplittableRandom bits = new SplittableRandom(mode.ordinal() * 7L + sat.ordinal());
                    for (int code = 0; code < 256; code++) {
                        long r = mode.stochastic() ? bits.nextLong(1L << c.operands().randomBits()) : 0;
                        long got = c.apply(c.operands().operand(code, r));
                        double v = pair[0].value(code);
                        int want = project(pair[1], v, mode, sat, r, pair[0].p());
                        if (got != want && failures.size() < 20) {
                            failures.add(pair[0].name() + "->" + pair[1].name() + " " + mode.suffix() + " " + sat + " 0x"
                                    + Integer.toHexString(code) + " random 0x" + Long.toHexString(r) + ": reference 0x"
                                    + Long.toHexString(got) + ", draft 0x" + Integer.toHexString(want));
                        }
                    }
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void theInterimUnsignedReadingIsSelectable() {
        Reference interim = new Reference(P3109.tables(), Semantics.of(P3109.tables(), Map.of("p3109-unsigned-negative", "zero")));
        for (String form : List.of("satfinite", "satpropagate", "satnone")) {
            for (Rounding mode : MODES.subList(0, 6)) {
                Converter c = interim.converter(interim.resolve("float", "binary8p3ue", mode.suffix(), form, interim.ctrl("")));
                for (int bits : new int[] {0xBF800000, 0xFF800000, 0xAB800000, 0xC7600000}) {
                    assertEquals(0L, c.apply(bits & 0xFFFFFFFFL), form + " " + mode.suffix() + " " + Integer.toHexString(bits));
                }
            }
        }
        Converter july = P3109.converter(P3109.resolve("float", "binary8p3ue", "rn", "satnone", P3109.ctrl("")));
        assertEquals(0xFFL, july.apply(0xBF800000L), "the July 2026 table: NaN");
    }
}
