package convcert.suite.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import convcert.suite.model.MismatchKind;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Mismatch kinds name what differs between the values, whatever the distance between the bit patterns. */
class MismatchClassifierTest {

    static final Reference ASCEND = Reference.of(SpecTables.load(Path.of(System.getProperty("convcert.home"))
            .resolve("spec-tables/ascend-c")));

    static FormatCodec codec(String name) {
        return ASCEND.codec(ASCEND.format(name));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        -0.5 -> int32: 0 instead of -1              | float    | 0xBF000000 | int32      | 0xFFFFFFFF | 0x00000000 | false | one step (rounding)
        bf16 0.5 rounded to integral: 1.0, not 0    | bfloat16 | 0x3F00     | bfloat16   | 0x0000     | 0x3F80     | true  | one step (rounding)
        e4m3fn overflow: NaN instead of 448         | float    | 0x44000000 | fp8_e4m3fn | 0x7E       | 0x7F       | false | overflow / saturation
        a NaN input truncated to -infinity          | float    | 0xFF800001 | bfloat16   | 0xFFC0     | 0xFF80     | false | NaN vs number
        a subnormal half flushed to zero            | float    | 0x38000000 | half       | 0x0200     | 0x0000     | false | subnormal vs zero (flush)
        one ulp of half                             | float    | 0x3F800000 | half       | 0x3C00     | 0x3C01     | false | one step (rounding)
        three ulps of half                          | float    | 0x3F800000 | half       | 0x3C00     | 0x3C03     | false | 2-16 steps
        the sign of a half                          | float    | 0x3F800000 | half       | 0x3C00     | 0xBC00     | false | sign
        a quiet NaN's sign                          | float    | 0xFFC00000 | half       | 0xFE00     | 0x7E00     | false | NaN encoding: sign
        a signalling NaN left signalling            | float    | 0x7F800001 | half       | 0x7E00     | 0x7C01     | false | NaN encoding: quiet bit
        NaN to int32 giving INT_MIN                 | float    | 0x7FC00000 | int32      | 0x00000000 | 0x80000000 | false | NaN to integer
        wrapped instead of saturated                | float    | 0x4F800000 | int32      | 0x7FFFFFFF | 0x00000000 | false | wrap vs saturate
        one code below a power of two               | float    | 0x017F8000 | bfloat16   | 0x0180     | 0x017F     | false | one step (rounding)
        the overflow tie sent toward zero           | float    | 0x7F7F8000 | bfloat16   | 0x7F80     | 0x7F7F     | false | one step (rounding)
        saturated where the value overflows         | float    | 0x7F7FFFFF | bfloat16   | 0x7F80     | 0x7F7F     | false | overflow / saturation
        one code of hifloat8 across a binade        | float    | 0x3F7C0000 | hifloat8   | 0x08       | 0x1F       | false | one step (rounding)
        """)
    void kindsComeFromValues(String what, String from, String input, String to, String expected, String actual,
                             boolean integral, String kind) {
        MismatchKind k = MismatchClassifier.classify(codec(from), Long.decode(input), codec(to), Long.decode(expected),
                Long.decode(actual), integral);
        assertEquals(kind, k.label(), what);
    }

    static final Reference MX = Reference.of(SpecTables.load(Path.of(System.getProperty("convcert.home"))
            .resolve("spec-tables/ocp-mx")));

    /** A NaN sent to a format that has none is about NaN, whatever the two numbers are (not an overflow). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        NaN to FP4 giving zero, not the largest | fp4_e2m1 | 0x7 | 0x0
        NaN to FP6 giving the largest negative  | fp6_e2m3 | 0x1F | 0x3F
        """)
    void aNanInputIsKindOfNanHandling(String what, String to, String expected, String actual) {
        MismatchKind k = MismatchClassifier.classify(MX.codec(MX.format("float")), 0x7FC00000L, MX.codec(MX.format(to)),
                Long.decode(expected), Long.decode(actual), false);
        assertEquals("NaN to a format without NaN", k.label(), what);
    }
}
