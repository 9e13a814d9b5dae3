package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.Expected;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.RationalOracle;
import convcert.oracle.Value;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The riscv profile (fcvt between float, double, half, bfloat16 and the integers, in the five rm
 * modes) against oracles written from the ISA text: results by exact rationals with RISC-V's NaN and
 * integer-range rules, and fflags by their IEEE 754 definitions in BigDecimal arithmetic (overflow and
 * tininess after rounding to the precision with an unbounded exponent), never through Flags.
 */
class RiscvOracleTest {

    static final Reference RISCV = TestProfile.reference("riscv");
    static final long SEED = 20261201L;

    /** Precision, minimum normal exponent, mantissa bits of the floating formats, written from IEEE 754. */
    record Ieee(int precision, int minExponent, int mantissaBits, long canonicalNan) { }

    static final Map<String, Ieee> IEEE = Map.of("half", new Ieee(11, -14, 10, 0x7E00), "bfloat16", new Ieee(8, -126, 7, 0x7FC0),
            "float", new Ieee(24, -126, 23, 0x7FC00000L), "double", new Ieee(53, -1022, 52, 0x7FF8000000000000L),
            // Zvfofp8min: "the canonical NaN for both E4M3 and E5M2 is 0x7f"
            "fp8_e4m3fn", new Ieee(4, -6, 3, 0x7F), "fp8_e5m2", new Ieee(3, -14, 2, 0x7F));

    @TestFactory
    Stream<DynamicTest> everyFcvtAgreesInValueAndFlags() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Conversion c : RISCV.tables().conversions()) {
            long[] inputs = inputs(c);
            for (Rounding mode : c.modes().stream().sorted().toList()) {
                for (Case state : RISCV.saturationStates(c, mode)) {
                tests.add(DynamicTest.dynamicTest(state.describe() + " [" + inputs.length + " inputs]", () -> {
                    Converter converter = RISCV.converter(state);
                    Flags flags = converter.flags();
                    List<String> wrong = new ArrayList<>();
                    for (long x : inputs) {
                        long result = converter.apply(x);
                        Expected want = expected(state, x);
                        int raised = flags.of(x, result);
                        int wantFlags = expectedFlags(state, x);
                        if ((!want.matches(c.to().name(), result) || raised != wantFlags) && wrong.size() < 8) {
                            wrong.add(String.format("0x%X: oracle %s flags %02x, reference 0x%X flags %02x", x, want, wantFlags,
                                    result, raised));
                        }
                    }
                    assertTrue(wrong.isEmpty(), () -> state.describe() + ":\n" + String.join("\n", wrong));
                }));
                }
            }
        }
        // 3 narrowings between float, double, half and float -> bfloat16 and 24 integer pairs in five modes; 4 exact
        // widenings in rn; Zvfofp8min's 4 narrowings to OFP8 in five modes, each with and without .sat, 2 widenings;
        // Zvfofp4min's one widening, OFP4 to E4M3
        assertEquals(5 * (3 + 1 + 24) + 4 + 4 * 5 * 2 + 2 + 1, tests.size(), "fcvt pairs x rm modes x forms");
        return tests.stream();
    }

    /** The flags of the ISA text's own examples, and a tininess decision that changes them. */
    @Test
    void flagsOfHandPickedConversions() {
        assertEquals(0x10, flag("float", "int32", "rz", 0x4F000000L), "2^31: out of range, NV without NX");
        assertEquals(0x01, flag("float", "uint32", "rz", 0xBE99999AL), "-0.3 toward zero is 0: NX only");
        assertEquals(0x10, flag("float", "uint32", "rd", 0xBE99999AL), "-0.3 down is -1: NV");
        assertEquals(0x10, flag("float", "half", "rn", 0x7F800001L), "a signaling NaN: NV");
        assertEquals(0x00, flag("float", "half", "rn", 0x7FC00001L), "a quiet NaN: nothing");
        assertEquals(0x05, flag("float", "half", "rn", 0x477FF000L), "65520 rounds to 2^16: OF NX");
        assertEquals(0x01, flag("float", "half", "rz", 0x477FF000L), "65520 toward zero is 65504: NX only");
        // 2^-14 * (1 - 2^-12): tiny before rounding, rounds up to the smallest normal in rn
        assertEquals(0x01, flag("float", "half", "rn", 0x387FF800L), "tininess after rounding: not tiny, NX only");
        Reference before = new Reference(RISCV.tables(), Semantics.of(RISCV.tables(), Map.of("tininess", "before-rounding")));
        Converter c = before.converter(before.resolve("float", "half", "rn", "nosat", before.ctrl("")));
        assertEquals(0x03, c.flags().of(0x387FF800L, c.apply(0x387FF800L)), "tininess before rounding: UF NX");
        Reference always = new Reference(RISCV.tables(), Semantics.of(RISCV.tables(), Map.of("underflow-flag", "when-tiny")));
        Converter exact = always.converter(always.resolve("float", "half", "rn", "nosat", always.ctrl("")));
        assertEquals(0x02, exact.flags().of(0x33800000L, exact.apply(0x33800000L)), "2^-24 is exact but tiny: UF alone");
        assertEquals(0x00, flag("float", "half", "rn", 0x33800000L), "2^-24 exact: nothing by default");
        Reference x86 = new Reference(RISCV.tables(), Semantics.of(RISCV.tables(), Map.of("overflow-flag", "before-rounding")));
        Converter f16c = x86.converter(x86.resolve("float", "half", "rz", "nosat", x86.ctrl("")));
        assertEquals(0x05, f16c.flags().of(0x477FE001L, f16c.apply(0x477FE001L)), "65504.004 exceeds 65504: OF NX before rounding");
        assertEquals(0x01, flag("float", "half", "rz", 0x477FE001L), "rounded toward zero it is 65504: NX only after rounding");
        assertEquals(0x00, flag("float", "fp8_e4m3fn", "rn", 0x7F800000L), "infinity to E4M3 (the canonical NaN): nothing");
        assertEquals(0x00, flag("float", "fp8_e5m2", "rn", 0x7F800000L), "infinity to E5M2 is infinity: nothing");
        for (var option : Map.of("overflow-inexact", 0x05, "invalid", 0x10).entrySet()) {
            Reference r = new Reference(RISCV.tables(), Semantics.of(RISCV.tables(), Map.of("infinite-input-flags", option.getKey())));
            for (String form : new String[] {"nosat", "sat"}) {
                Converter e4m3 = r.converter(r.resolve("float", "fp8_e4m3fn", "rn", form, r.ctrl("")));
                assertEquals(option.getValue(), e4m3.flags().of(0xFF800000L, e4m3.apply(0xFF800000L)),
                        "-infinity to E4M3 " + form + " under infinite-input-flags=" + option.getKey());
            }
            Converter e5m2 = r.converter(r.resolve("float", "fp8_e5m2", "rn", "nosat", r.ctrl("")));
            assertEquals(0x00, e5m2.flags().of(0x7F800000L, e5m2.apply(0x7F800000L)), "E5M2 has infinity: the decision does not apply");
        }
    }

    private static int flag(String from, String to, String mode, long bits) {
        Converter c = RISCV.converter(RISCV.resolve(from, to, mode, to.contains("int") ? "sat" : "nosat", RISCV.ctrl("")));
        return c.flags().of(bits, c.apply(bits));
    }

    /** The result by exact rationals, with RISC-V's NaN rules: canonical NaN, NaN to an integer its largest value. */
    static Expected expected(Case state, long bits) {
        String from = state.conversion().from().name();
        String to = state.conversion().to().name();
        Value v = IndependentDecoder.decode(from, bits);
        if (v.kind() == Value.Kind.NAN) {
            if (IndependentDecoder.isInteger(to)) {
                int w = IndependentDecoder.width(to);
                return Expected.bits(to.startsWith("u") ? (w == 64 ? -1L : (1L << w) - 1) : (1L << (w - 1)) - 1);
            }
            return Expected.bits(IEEE.get(to).canonicalNan());
        }
        Expected e = RationalOracle.convert(from, to, state.rounding(), state.saturation(), false, bits);
        // Zvfofp8min: "since E4M3 cannot represent infinity, infinite results are converted to the canonical NaN"
        return e.anyNaN() ? Expected.bits(IEEE.get(to).canonicalNan()) : e;
    }

    /** fflags by definition (IEEE 754 7.2-7.6 with the RISC-V conversion rules). */
    static int expectedFlags(Case state, long bits) {
        String from = state.conversion().from().name();
        String to = state.conversion().to().name();
        Value v = IndependentDecoder.decode(from, bits);
        boolean integer = IndependentDecoder.isInteger(to);
        switch (v.kind()) {
            case NAN -> {
                long quietBit = 1L << (IEEE.get(from).mantissaBits() - 1);
                boolean ofp8 = from.startsWith("fp8"); // Zvfofp8min: OFP8 to BF16, "no floating-point exception flags are set"
                return integer || (!ofp8 && (bits & quietBit) == 0) ? 0x10 : 0;
            }
            case INFINITE -> {
                return integer ? 0x10 : 0;
            }
            case ZERO -> {
                return 0;
            }
            default -> {
            }
        }
        BigDecimal x = v.signed();
        RoundingMode rounding = roundingMode(state.rounding());
        if (integer) {
            BigInteger n = x.setScale(0, rounding).toBigIntegerExact();
            int w = IndependentDecoder.width(to);
            BigInteger min = to.startsWith("u") ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(w - 1).negate();
            BigInteger max = to.startsWith("u") ? BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE)
                    : BigInteger.ONE.shiftLeft(w - 1).subtract(BigInteger.ONE);
            if (n.compareTo(min) < 0 || n.compareTo(max) > 0) {
                return 0x10;
            }
            return new BigDecimal(n).compareTo(x) != 0 ? 0x01 : 0;
        }
        Ieee d = IEEE.get(to);
        BigDecimal unbounded = roundToPrecision(x, d.precision(), rounding);
        BigDecimal largest = IndependentDecoder.decode(to, largestCode(to)).magnitude();
        BigDecimal smallestNormal = pow2(d.minExponent());
        Value result = IndependentDecoder.decode(to, expected(state, bits).bits());
        boolean inexact = result.kind() != Value.Kind.FINITE && result.kind() != Value.Kind.ZERO
                || result.signed().compareTo(x) != 0;
        int flags = inexact ? 0x01 : 0;
        if (unbounded.abs().compareTo(largest) > 0) {
            flags |= 0x05;
        }
        if (unbounded.abs().compareTo(smallestNormal) < 0 && inexact) {
            flags |= 0x02;
        }
        return flags;
    }

    private static long largestCode(String format) {
        return switch (format) {
            case "half" -> 0x7BFF;
            case "bfloat16" -> 0x7F7F;
            case "float" -> 0x7F7FFFFFL;
            case "fp8_e4m3fn" -> 0x7E;
            case "fp8_e5m2" -> 0x7B;
            default -> 0x7FEFFFFFFFFFFFFFL;
        };
    }

    /** x rounded to p significant bits, the exponent unbounded. */
    static BigDecimal roundToPrecision(BigDecimal x, int p, RoundingMode rounding) {
        int binade = binade(x.abs());
        BigDecimal quantum = pow2(binade - p + 1);
        BigDecimal units = x.divide(quantum, MathContext.UNLIMITED).setScale(0, rounding);
        return units.multiply(quantum);
    }

    /** floor(log2 a) for a > 0. */
    static int binade(BigDecimal a) {
        int e = (int) Math.floor(a.unscaledValue().bitLength() - a.scale() * (Math.log(10) / Math.log(2))) - 2;
        while (pow2(e + 1).compareTo(a) <= 0) {
            e++;
        }
        while (pow2(e).compareTo(a) > 0) {
            e--;
        }
        return e;
    }

    static BigDecimal pow2(int n) {
        return n >= 0 ? new BigDecimal(BigInteger.ONE.shiftLeft(n)) : BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(-n)));
    }

    static RoundingMode roundingMode(Rounding mode) {
        return switch (mode) {
            case RN -> RoundingMode.HALF_EVEN;
            case RNA -> RoundingMode.HALF_UP;
            case RZ -> RoundingMode.DOWN;
            case RU -> RoundingMode.CEILING;
            case RD -> RoundingMode.FLOOR;
            default -> throw new IllegalArgumentException(mode.toString());
        };
    }

    /**
     * Every pattern of a 16-bit source; for wider ones the seeded sweep plus, for floating sources, the
     * destination's values and midpoints near its smallest normal and its largest value, each with
     * the source's neighbours: where overflow and tininess change.
     */
    static long[] inputs(Conversion c) {
        List<Long> inputs = new ArrayList<>();
        if (c.from().width() <= 16) {
            Sweeps.exhaustive(c.from().width(), inputs::add);
        } else { // fewer than RationalOracleTest's: the BigDecimal flags double the cost, the targets below add the edges
            Sweeps.seeded(SEED ^ c.pairName().hashCode(), c.from().width(), 10_000, !c.from().isInteger(), inputs::add);
        }
        String from = c.from().name();
        String to = c.to().name();
        if (c.from().width() > 16 && IEEE.containsKey(from) && IEEE.containsKey(to)) {
            Ieee d = IEEE.get(to);
            SplittableRandom random = new SplittableRandom(SEED);
            long top = (1L << d.mantissaBits()) - 1;
            for (long exponentField : new long[] {0, 1, 2, (1L << (IndependentDecoder.width(to) - 2 - d.mantissaBits())) * 2 - 2}) {
                for (int k = 0; k < 40; k++) {
                    long mantissa = k < 4 ? k : k < 8 ? top - (k - 4) : random.nextLong(top + 1);
                    long code = exponentField << d.mantissaBits() | mantissa;
                    BigDecimal a = IndependentDecoder.decode(to, code).magnitude();
                    BigDecimal b = code < largestCode(to) ? IndependentDecoder.decode(to, code + 1).magnitude()
                            : a.multiply(BigDecimal.valueOf(2));
                    for (BigDecimal p : new BigDecimal[] {a, a.add(b).divide(BigDecimal.valueOf(2))}) {
                        for (long near : neighbours(from, p)) {
                            inputs.add(near);
                            inputs.add(near ^ (from.equals("float") ? 0x80000000L : Long.MIN_VALUE));
                        }
                    }
                }
            }
        }
        return inputs.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] neighbours(String from, BigDecimal p) {
        if (from.equals("float")) {
            float f = p.floatValue();
            return new long[] {Float.floatToRawIntBits(f) & 0xFFFFFFFFL, Float.floatToRawIntBits(Math.nextUp(f)) & 0xFFFFFFFFL,
                Float.floatToRawIntBits(Math.nextDown(f)) & 0xFFFFFFFFL};
        }
        double d = p.doubleValue();
        return new long[] {Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(Math.nextUp(d)),
            Double.doubleToRawLongBits(Math.nextDown(d))};
    }
}
