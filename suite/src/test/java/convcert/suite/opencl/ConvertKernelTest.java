package convcert.suite.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The spellings one OpenCL conversion case goes through, and how a batch is shared among them. */
class ConvertKernelTest {

    private static ConvertKernel kernel(String src, String dst, int bits, boolean signed, boolean sat, String modifier) {
        return new ConvertKernel(src, dst, bits, signed, sat, modifier, ConvertKernel.WIDTHS, true);
    }

    @Test
    void aDefaultModeAddsTheSpellingWithoutModifierAndSatAddsTheInRangeOne() {
        List<ConvertKernel.Form> forms = kernel("float", "int", 32, true, true, "_rtz").forms();
        assertEquals(9, forms.size(), forms.toString()); // its name at 6 widths, no modifier, in range, implicit
        assertEquals("convert_int%s_sat_rtz", forms.get(0).spelling());
        assertEquals(new ConvertKernel.Form(16, "convert_int%s_sat_rtz"), forms.get(5));
        assertEquals(new ConvertKernel.Form(1, "convert_int%s_sat"), forms.get(6));
        assertEquals(new ConvertKernel.Form(1, "in-range"), forms.get(7));
        assertEquals(new ConvertKernel.Form(1, "implicit"), forms.get(8));
        assertEquals(6, kernel("float", "int", 32, true, true, "_rte").forms().stream()
                .filter(f -> !f.spelling().equals("in-range")).count(), "rte is not the integer default: one spelling");
        assertEquals(8, kernel("uint", "half", 16, true, false, "_rte").forms().size(), "rte is the floating default");
        assertEquals(6, kernel("uint", "half", 16, true, false, "_rtz").forms().size(), "nor implicit in rtz");
    }

    @Test
    void integerPairsGoThroughEveryModifier() {
        List<ConvertKernel.Form> forms = kernel("short", "uchar", 8, false, false, "_rtz").forms();
        assertEquals(11, forms.size());
        assertEquals(List.of("convert_uchar%s", "convert_uchar%s_rte", "convert_uchar%s_rtz", "convert_uchar%s_rtp",
                "convert_uchar%s_rtn", "implicit"), forms.stream().map(ConvertKernel.Form::spelling).distinct().toList());
        assertEquals(10, kernel("short", "uchar", 8, false, true, "_rtz").forms().size(), "no implicit saturation");
        assertEquals(6, new ConvertKernel("short", "uchar", 8, false, false, "_rtz", ConvertKernel.WIDTHS, false)
                .forms().size(), "spellings=named: the case's own name only");
    }

    @Test
    void theKernelHoldsEveryFormWithPartialVectorsElementByElement() {
        String source = kernel("float", "int", 32, true, true, "_rtz").source("");
        assertTrue(source.contains("case 2: if ((i + 1) * 3 <= (size_t)count) vstore3(convert_int3_sat_rtz(vload3(i, in)), i, out);"
                + " else for (size_t j = i * 3; j < (size_t)count; j++) out[j] = convert_int_sat_rtz(in[j]);"), source);
        // a scalar form guards its items: the work-group's padding past count writes nothing
        assertTrue(source.contains("case 6: if (i < (size_t)count) { out[i] = convert_int_sat(in[i]); } break;"), source);
        assertTrue(source.contains("case 5: if ((i + 1) * 16 <= (size_t)count) vstore16(convert_int16_sat_rtz(vload16(i, in))"),
                source);
        // 2^31 - 1 is no float: the bound is the largest float below it, so no rounding of a value in range leaves it
        assertTrue(source.contains("((float)x >= -0x1.0p31f && (float)x <= 0x1.fffffep30f) ? convert_int_rtz(x) : "
                + "convert_int_sat_rtz(x)"), source);
        String unsigned = kernel("double", "ulong", 64, false, true, "_rtp").source("");
        assertTrue(unsigned.contains("(x >= 0x0.0p0 && x <= 0x1.fffffffffffffp63) ? convert_ulong_rtp(x) : convert_ulong_sat_rtp(x)"),
                unsigned);
        assertTrue(source.contains("case 8: if (i < (size_t)count) { { float x = in[i]; if ((float)x >= -0x1.0p31f && (float)x <= 0x1.fffffep30f) "
                + "out[i] = x; else out[i] = convert_int_sat_rtz(x); }"), source);
        assertTrue(kernel("long", "float", 32, true, false, "_rte").source("").contains("out[i] = in[i];"));
        String small = kernel("half", "char", 8, true, true, "_rte").source("");
        assertTrue(small.contains("(float)x >= -0x1.0p7f && (float)x <= 0x1.fcp6f"), small);
    }

    @Test
    void everyFormAnswersAConsecutiveSliceOfTheBatch() {
        ConvertKernel k = kernel("float", "int", 32, true, true, "_rtz");
        int[] slices = k.slices(100);
        assertEquals(10, slices.length);
        assertEquals(0, slices[0]);
        assertEquals(100, slices[9]);
        for (int f = 0; f < 9; f++) {
            assertTrue(slices[f + 1] - slices[f] >= 11, "form " + f + " answers part of every batch of 100");
        }
        assertEquals(3, k.items(k.forms().get(5), 33), "16-wide: two whole vectors and a tail of one");
    }
}
