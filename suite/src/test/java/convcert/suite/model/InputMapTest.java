package convcert.suite.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import convcert.reference.Reference;
import convcert.spec.SpecTables;
import convcert.suite.runner.InputCells;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The input map files a mismatching input under its sign, exponent field and leading fraction bits, read off the bits. */
class InputMapTest {

    static final Reference ASCEND = Reference.of(SpecTables.load(Path.of(System.getProperty("convcert.home"))
            .resolve("spec-tables/ascend-c")));


    @ParameterizedTest(name = "{0} {1} is in {2}")
    @CsvSource(delimiter = '|', textBlock = """
        float      | 0x3F800001 | +7f.000
        float      | 0xBFF00000 | -7f.111
        float      | 0x00000001 | +00.000
        float      | 0x7FC00000 | +ff.100
        half       | 0x7C01     | +1f.000
        half       | 0x83FF     | -00.111
        bfloat16   | 0x3FA0     | +7f.010
        fp8_e5m2   | 0x7F       | +1f.11
        fp8_e4m3fn | 0xFE       | -f.110
        """)
    void aCellIsSignExponentFieldAndLeadingBits(String format, String input, String cell) {
        InputMap.Counter counter = InputCells.counter(ASCEND.format(format));
        counter.add(Long.decode(input));
        assertEquals(Map.of(cell, 1L), counter.map().cells());
    }

    @Test
    void aCellHoldsTheInputsItsBitsLeaveFree() {
        InputMap f = InputCells.counter(ASCEND.format("float")).map();
        assertEquals(1L << 20, f.cellSize()); // 23 fraction bits, 3 of them the row
        assertEquals(127, f.bias());
        assertEquals(true, f.topFieldSpecial());
        assertEquals(false, InputCells.counter(ASCEND.format("fp8_e4m3fn")).map().topFieldSpecial());
        assertEquals(1L << 0, InputCells.counter(ASCEND.format("fp8_e5m2")).map().cellSize());
    }

    @Test
    void integersAndTaperedFormatsHaveNone() {
        assertNull(InputCells.counter(ASCEND.format("int32")));
        assertNull(InputCells.counter(ASCEND.format("hifloat8")));
    }

    @Test
    void mapsOfDisjointRangesAdd() {
        InputMap a = new InputMap(8, 23, 127, true, 3, Map.of("+7f.000", 2L, "-00.001", 1L));
        InputMap b = new InputMap(8, 23, 127, true, 3, Map.of("+7f.000", 5L, "+80.111", 4L));
        assertEquals(Map.of("+7f.000", 7L, "-00.001", 1L, "+80.111", 4L), a.plus(b).cells());
        assertEquals(12, a.plus(b).total());
        assertEquals(a, a.plus(null));
        assertThrows(IllegalArgumentException.class, () -> a.plus(new InputMap(5, 10, 15, true, 3, Map.of())));
    }
}
