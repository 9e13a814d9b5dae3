package convcert.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What a scale lane's bits mean: the conversions.csv grammar, the power of two each lane value gives,
 * which value is the NaN scale, and HIP's int8 exponent beside the E8M0 byte its documentation names.
 */
class ScaleLaneEncodingTest {

    @Test
    void theColumnGrammarReadsWidthSignDirectionAndNan() {
        assertEquals(new ScaleLane(8, true, false, false, 0), ScaleLane.parse("s8"));
        assertEquals(new ScaleLane(4, false, true, false, 0), ScaleLane.parse("-u4"));
        assertEquals(new ScaleLane(8, true, true, true, 0), ScaleLane.parse("-s8n"));
        for (String bad : new String[] {"", "s", "s0", "s17", "x8", "s8nn", "n", "--s8", "s08"}) {
            assertNull(ScaleLane.parse(bad), bad);
        }
        assertEquals("-s8n", ScaleLane.parse("-s8n").toString());
        assertEquals("-e8m0", ScaleLane.parse("-s8n").asE8m0().toString());
    }

    @Test
    void hipsInt8ExponentHasItsNanAtMinus128() {
        ScaleLane widen = ScaleLane.parse("s8n");
        assertEquals(0, widen.exponent(0x00));
        assertEquals(127, widen.exponent(0x7F));
        assertEquals(-127, widen.exponent(0x81));
        assertTrue(widen.isNan(0x80));
        assertFalse(widen.isNan(0x7F));
        assertFalse(ScaleLane.parse("s8").isNan(0x80), "without n, -128 is a scale like any other");
        assertEquals(-3, ScaleLane.parse("-s8n").exponent(0x03), "a dividing lane negates");
    }

    @Test
    void theSameByteReadAsE8m0IsBiasedBy127WithNanAt0xFF() {
        ScaleLane e8m0 = ScaleLane.parse("s8n").asE8m0();
        assertEquals(0, e8m0.exponent(0x7F));
        assertEquals(-127, e8m0.exponent(0x00));
        assertEquals(127, e8m0.exponent(0xFE));
        assertTrue(e8m0.isNan(0xFF));
        assertFalse(e8m0.isNan(0x80));
        assertEquals(1, e8m0.exponent(0x80), "HIP's NaN exponent byte is 2^1 to an E8M0 reader");
        assertThrows(IllegalStateException.class, () -> ScaleLane.parse("s5").asE8m0());
    }
}
