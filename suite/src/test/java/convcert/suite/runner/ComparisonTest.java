package convcert.suite.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.SpecTables;
import convcert.spi.MemoryCase;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The NaN rule: under nan-comparison=any two NaNs of the destination agree whatever their sign and payload,
 * under exact only the same bits do; a number never agrees with a NaN, an integer's bits are never a NaN,
 * and bits beyond the format's width are a wrong answer under both.
 */
class ComparisonTest {

    private static final SpecTables ASCEND = SpecTables.load(Path.of(System.getProperty("convcert.home"))
            .resolve("spec-tables/ascend-c"));

    private static Comparison under(String option) {
        return Comparison.of(new Reference(ASCEND, Semantics.of(ASCEND, Map.of("nan-comparison", option))));
    }

    private static FormatCodec codec(String format) {
        Reference r = Reference.of(ASCEND);
        return r.codec(r.format(format));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        the same bits                         | half     | 0x3C00  | 0x3C00   | true  | true
        a quiet NaN for another quiet NaN     | half     | 0x7E00  | 0x7E01   | true  | false
        a NaN of the other sign               | half     | 0x7E00  | 0xFE00   | true  | false
        a signalling NaN for a quiet one      | half     | 0x7E00  | 0x7C01   | true  | false
        infinity for a NaN                    | half     | 0x7E00  | 0x7C00   | false | false
        a NaN for a number                    | half     | 0x3C00  | 0x7E00   | false | false
        a NaN with a bit above the format     | half     | 0x7E00  | 0x17E00  | false | false
        bfloat16's NaNs                       | bfloat16 | 0x7FC0  | 0xFF81   | true  | false
        e4m3fn's two NaNs                     | fp8_e4m3fn | 0x7F  | 0xFF     | true  | false
        an integer is never a NaN             | int16    | 0x7E00  | 0x7E01   | false | false
        """)
    void nanAgreesWithNanOnlyUnderAny(String what, String format, String expected, String actual, boolean any,
                                      boolean exact) {
        FormatCodec c = codec(format);
        assertEquals(any, under("any").same(c, Long.decode(expected), Long.decode(actual)), what + " (any)");
        assertEquals(exact, under("exact").same(c, Long.decode(expected), Long.decode(actual)), what + " (exact)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        halves stored: NaNs of another payload          | vstore_half | 0x00,0x7E,0x00,0x3C | 0x01,0x7E,0x00,0x3C | true
        halves stored: a number differs                 | vstore_half | 0x00,0x7E,0x00,0x3C | 0x00,0x7E,0x01,0x3C | false
        halves stored: infinity for a NaN               | vstore_half | 0x00,0x7E,0x00,0x3C | 0x00,0x7C,0x00,0x3C | false
        a plain store compares bytes                    | vstore      | 0x00,0x7E,0x00,0x3C | 0x01,0x7E,0x00,0x3C | false
        """)
    void memoryResultsOfHalfFunctionsFollowTheSameRule(String what, String function, String expected, String actual,
                                                       boolean any) {
        MemoryCase c = MemoryCase.of(function, function.equals("vstore") ? "short" : "float", 2, "");
        byte[] e = bytes(expected);
        byte[] a = bytes(actual);
        assertEquals(any, under("any").sameBytes(c, e, a, e.length), what + " (any)");
        assertEquals(false, under("exact").sameBytes(c, e, a, e.length), what + " (exact)");
    }

    private static byte[] bytes(String list) {
        String[] parts = list.split(",");
        byte[] b = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            b[i] = (byte) (int) Integer.decode(parts[i]);
        }
        return b;
    }
}
