package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.common.Home;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.Value;
import convcert.spec.Format;
import convcert.spec.SpecTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The NaN rule golden files give test benches (NaNs.rule: a mask, a value, a mantissa not 0): it tells a
 * format's NaNs exactly as the independent decoder does, on every code up to 16 bits and on the boundary
 * codes of float and double, and every format of every profile has one exactly when it has NaNs.
 */
class NanRuleTest {

    private static final Reference ASCEND = Reference.of(SpecTables.load(Home.specTables().resolve("ascend-c")));

    @Test
    void theRuleTellsTheNaNsTheIndependentDecoderTells() {
        for (String name : List.of("half", "bfloat16", "fp8_e4m3fn", "fp8_e5m2", "hifloat8")) {
            NaNs.Rule rule = NaNs.rule(ASCEND.codec(ASCEND.format(name)));
            for (long bits = 0; bits < 1L << IndependentDecoder.width(name); bits++) {
                boolean nan = IndependentDecoder.decode(name, bits).kind() == Value.Kind.NAN;
                assertEquals(nan, rule.matches(bits), name + " 0x" + Long.toHexString(bits));
            }
        }
        NaNs.Rule single = NaNs.rule(ASCEND.codec(ASCEND.format("float")));
        NaNs.Rule dbl = NaNs.rule(ASCEND.codec(ASCEND.format("double")));
        for (long bits : new long[] {0x7F800000L, 0xFF800000L, 0x7F800001L, 0xFFFFFFFFL, 0x7FC00000L, 0x7F7FFFFFL, 0L, 0x80000000L}) {
            assertEquals(IndependentDecoder.decode("float", bits).kind() == Value.Kind.NAN, single.matches(bits), Long.toHexString(bits));
        }
        for (long bits : new long[] {0x7FF0000000000000L, 0xFFF0000000000001L, 0x7FF8000000000000L, 0x7FEFFFFFFFFFFFFFL, -1L}) {
            assertEquals(IndependentDecoder.decode("double", bits).kind() == Value.Kind.NAN, dbl.matches(bits), Long.toHexString(bits));
        }
        assertNull(NaNs.rule(ASCEND.codec(ASCEND.format("int32"))));
    }

    @Test
    void everyFormatWithNaNsHasARuleAndOnlyThose() throws IOException {
        try (Stream<Path> profiles = Files.list(Home.specTables())) {
            for (Path dir : profiles.filter(d -> Files.isRegularFile(d.resolve("formats.csv"))).toList()) {
                Reference reference = Reference.of(SpecTables.load(dir));
                for (Format f : reference.tables().formats()) {
                    FormatCodec codec = reference.codec(f);
                    NaNs.Rule rule = NaNs.rule(codec);
                    if (codec.isInteger() || !codec.hasNan()) {
                        assertNull(rule, f.name());
                    } else {
                        assertNotNull(rule, f.name());
                        assertTrue(rule.matches(f.nan()), f.name() + "'s canonical NaN");
                    }
                }
            }
        }
        Reference rocm = Reference.of(SpecTables.load(Home.specTables().resolve("rocm")));
        assertEquals(new NaNs.Rule(0xFF, 0x80, 0), NaNs.rule(rocm.codec(rocm.format("fp8_e4m3fnuz"))), "FNUZ: 0x80 alone");
        Reference mx = Reference.of(SpecTables.load(Home.specTables().resolve("ocp-mx")));
        assertEquals(new NaNs.Rule(0xFF, 0xFF, 0), NaNs.rule(mx.codec(mx.format("e8m0"))), "E8M0: 0xFF alone");
        assertNull(NaNs.rule(mx.codec(mx.format("fp4_e2m1"))), "FP4 has no NaN");
    }
}
