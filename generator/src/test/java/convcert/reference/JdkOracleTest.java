package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The JDK as an independent implementation: Float.floatToFloat16/float16ToFloat, the primitive
 * casts (int/long -> float round to nearest even; float -> int/long truncate and saturate, NaN -> 0)
 * and Math.rint/floor/ceil. Non-saturating, per-instruction CTRL (60=0).
 */
class JdkOracleTest {

    private static Converter converter(String from, String to, String rounding, String form) {
        Reference r = TestProfile.reference();
        return r.converter(r.resolve(from, to, rounding, form, r.ctrl("60=0")));
    }

    /** Runs the sweep, comparing with the oracle; NaN results are compared by isNaN (payloads apart). */
    private static void agree(Converter c, Consumer<LongConsumer> sweep,
                              LongUnaryOperator oracle, LongPredicate isNaN) {
        List<String> mismatches = new ArrayList<>();
        long[] count = {0};
        sweep.accept(bits -> {
            count[0]++;
            long expected = oracle.applyAsLong(bits);
            long actual = c.apply(bits);
            boolean ok = isNaN.test(expected) ? isNaN.test(actual) : actual == expected;
            if (!ok && mismatches.size() < 10) {
                mismatches.add(c.source().format().hex(bits) + ": expected " + c.destination().format().hex(expected)
                        + ", reference " + c.destination().format().hex(actual));
            }
        });
        assertTrue(mismatches.isEmpty(), c.spec().describe() + ": " + mismatches.size() + "+ mismatches in "
                + count[0] + " inputs:\n" + String.join("\n", mismatches));
    }

    private static boolean halfNaN(long h) {
        return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
    }

    private static boolean floatNaN(long f) {
        return Float.isNaN(Float.intBitsToFloat((int) f));
    }

    @Test
    void halfToFloatExhaustiveAgainstFloat16ToFloat() {
        Converter c = converter("half", "float", "rn", "nosat");
        for (long h = 0; h < 65536; h++) {
            long jdk = Float.floatToRawIntBits(Float.float16ToFloat((short) h)) & 0xFFFFFFFFL;
            long expected = halfNaN(h) ? jdk | 0x00400000 : jdk; // IEEE 754 6.2.3: the NaN becomes quiet
            assertEquals(expected, c.apply(h), "half 0x" + Long.toHexString(h));
        }
    }

    @Test
    void floatToHalfRnAgainstFloatToFloat16() {
        agree(converter("float", "half", "rn", "nosat"), sink -> Sweeps.float32Structured(1, sink),
                f -> Float.floatToFloat16(Float.intBitsToFloat((int) f)) & 0xFFFF, JdkOracleTest::halfNaN);
    }

    @Test
    void halfRoundTripsThroughFloatExhaustively() {
        Converter up = converter("half", "float", "rn", "nosat");
        for (String mode : List.of("rn", "rd", "ru", "rna", "rz", "ro")) {
            Converter down = converter("float", "half", mode, "nosat");
            for (long h = 0; h < 65536; h++) {
                if (!halfNaN(h)) {
                    assertEquals(h, down.apply(up.apply(h)), "half 0x" + Long.toHexString(h) + " via float, " + mode);
                }
            }
        }
    }

    @Test
    void floatToBfloat16RnAgainstRoundingFormula() {
        // PyTorch/Eigen round-to-nearest-even: (u + 0x7FFF + ((u >> 16) & 1)) >> 16 for non-NaN inputs.
        agree(converter("float", "bfloat16", "rn", "nosat"), sink -> Sweeps.float32Structured(2, sink),
                u -> floatNaN(u) ? 0x7FC0 : ((u + 0x7FFF + ((u >>> 16) & 1)) >>> 16) & 0xFFFF,
                b -> (b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0);
    }

    @Test
    void bfloat16ToFloatIsTheUpperHalf() {
        Converter c = converter("bfloat16", "float", "rn", "nosat");
        for (long b = 0; b < 65536; b++) {
            long expected = b << 16;
            boolean nan = (b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0;
            assertEquals(nan ? expected | 0x00400000 : expected, c.apply(b), "bfloat16 0x" + Long.toHexString(b));
        }
    }

    @Test
    void floatToInt32AgainstJavaCasts() {
        // Java's (int) cast of a double truncates toward zero, saturates and maps NaN to 0 (JLS 5.1.3).
        record Mode(String name, DoubleUnaryOperator round) { }
        for (Mode m : List.of(new Mode("rz", x -> x), new Mode("rn", Math::rint), new Mode("rd", Math::floor),
                new Mode("ru", Math::ceil))) {
            agree(converter("float", "int32", m.name(), "sat"), sink -> Sweeps.float32Structured(3, sink),
                    f -> (int) m.round().applyAsDouble(Float.intBitsToFloat((int) f)) & 0xFFFFFFFFL, x -> false);
            agree(converter("float", "int64", m.name(), "sat"), sink -> Sweeps.seeded(4, 32, 1 << 20, true, sink),
                    f -> (long) m.round().applyAsDouble(Float.intBitsToFloat((int) f)), x -> false);
        }
    }

    @Test
    void integersToFloatAgainstJavaCasts() {
        // int -> float and long -> float casts round to nearest even (JLS 5.1.2).
        agree(converter("int32", "float", "rn", "nosat"), sink -> Sweeps.seeded(5, 32, 1 << 20, false, sink),
                i -> Float.floatToRawIntBits((float) (int) i) & 0xFFFFFFFFL, x -> false);
        agree(converter("uint32", "float", "rn", "nosat"), sink -> Sweeps.seeded(6, 32, 1 << 20, false, sink),
                u -> Float.floatToRawIntBits((float) u) & 0xFFFFFFFFL, x -> false);
        agree(converter("int64", "float", "rn", "nosat"), sink -> Sweeps.seeded(7, 64, 1 << 20, false, sink),
                l -> Float.floatToRawIntBits((float) l) & 0xFFFFFFFFL, x -> false);
    }

    @Test
    void floatToFloatAgainstMathRounding() {
        record Mode(String name, DoubleUnaryOperator round) { }
        for (Mode m : List.of(new Mode("rn", Math::rint), new Mode("rd", Math::floor), new Mode("ru", Math::ceil))) {
            agree(converter("float", "float", m.name(), "nosat"), sink -> Sweeps.float32Structured(8, sink),
                    f -> Float.floatToRawIntBits((float) m.round().applyAsDouble(Float.intBitsToFloat((int) f)))
                            & 0xFFFFFFFFL, JdkOracleTest::floatNaN);
        }
    }

    @Test
    void halfToHalfAgainstMathRounding() {
        record Mode(String name, DoubleUnaryOperator round) { }
        for (Mode m : List.of(new Mode("rn", Math::rint), new Mode("rd", Math::floor), new Mode("ru", Math::ceil))) {
            Reference r = TestProfile.reference();
            Converter c = r.converter(r.resolve("half", "half", m.name(), "nosat", r.ctrl("60=1,48=1")));
            agree(c, sink -> Sweeps.exhaustive(16, sink),
                    h -> Float.floatToFloat16((float) m.round().applyAsDouble(Float.float16ToFloat((short) h))) & 0xFFFF,
                    JdkOracleTest::halfNaN);
        }
    }
}
