package convcert.suite.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import convcert.spi.AdapterException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * execute runs whole work-groups (OpenClDevice.GROUP items), so a launch of 5 elements runs 64 items: every
 * form of a conversion kernel writes its own elements and nothing past them, whatever the padding items do.
 */
class WorkGroupPaddingTest {

    static final int COUNT = 5;
    static final byte UNTOUCHED = 0x55;

    @Test
    void noFormWritesPastItsCount() throws Exception {
        OpenClDevice device;
        try {
            device = new OpenClDevice(null, 0);
        } catch (AdapterException e) {
            assumeTrue(false, "no OpenCL platform here: " + e.getMessage());
            return;
        }
        try (device) {
            ConvertKernel k = new ConvertKernel("float", "int", 32, true, true, "_rtz", ConvertKernel.WIDTHS, true);
            var kernel = device.kernel(k.source(""));
            byte[] in = new byte[4 * (int) OpenClDevice.GROUP * 16];
            for (int i = 0; i < COUNT; i++) {
                int bits = Float.floatToRawIntBits(i + 1.5f);
                for (int b = 0; b < 4; b++) {
                    in[4 * i + b] = (byte) (bits >>> (8 * b));
                }
            }
            List<ConvertKernel.Form> forms = k.forms();
            for (int f = 0; f < forms.size(); f++) {
                byte[] out = new byte[in.length];
                Arrays.fill(out, UNTOUCHED);
                device.execute(kernel, k.items(forms.get(f), COUNT), in, new OpenClDevice.Output(out), f, COUNT);
                for (int i = 0; i < out.length; i++) {
                    if (i < 4 * COUNT) {
                        assertEquals(i % 4 == 0 ? i / 4 + 1 : 0, out[i], forms.get(f).label() + " byte " + i); // rtz
                    } else {
                        assertEquals(UNTOUCHED, out[i], forms.get(f).label() + " wrote byte " + i + " past its " + COUNT
                                + " elements");
                    }
                }
            }
        }
    }
}
