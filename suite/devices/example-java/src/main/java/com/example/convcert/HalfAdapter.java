package com.example.convcert;

import convcert.spi.AdapterException;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import java.util.List;

/**
 * float -> half in rn and half -> float, through Float.floatToFloat16 and Float.float16ToFloat. With
 * flush set it flushes half subnormals to zero, the kind of defect the suite is there to find.
 */
final class HalfAdapter implements ConverterAdapter {

    private final boolean flush;

    HalfAdapter(boolean flush) {
        this.flush = flush;
    }

    @Override
    public List<Capability> capabilities() {
        return List.of(new Capability("float", "half", "rn", "nosat"), new Capability("half", "float", "*", "nosat"));
    }

    @Override
    public boolean programsSaturation() {
        return false; // it is told each case's state, so only each state's primary variant runs
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        boolean toHalf = c.to().equals("half");
        for (int i = 0; i < count; i++) {
            if (toHalf) {
                short h = Float.floatToFloat16(Float.intBitsToFloat((int) inputs[i]));
                outputs[i] = flush && (h & 0x7C00) == 0 ? h & 0x8000 : h & 0xFFFF;
            } else {
                outputs[i] = Float.floatToRawIntBits(Float.float16ToFloat((short) inputs[i])) & 0xFFFF_FFFFL;
            }
        }
    }

    @Override
    public String identity() {
        return "example-half (JDK " + Runtime.version() + (flush ? ", flushing subnormals" : "") + ")";
    }
}
