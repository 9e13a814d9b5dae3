package convcert.spec;

import java.util.List;
import java.util.Set;

/**
 * One row of blocks.csv: size elements of one format, sharing one scale of an exponent-only format
 * (OCP MX), or with no scale (a packed vector such as CUDA's fp4x2). A block converts from and to
 * value, the wide format its data comes from; value -> block rounds elements in each of modes,
 * block -> value is exact but for overflow (rn). packed: elements of up to 4 bits are stored two per
 * byte, the first in the low nibble; otherwise every value takes bytes of its own.
 */
public record BlockFormat(String name, List<String> aliases, Format element, Format scale, int size, Format value,
                          Set<Rounding> modes, boolean packed, String description, String source, Location location) {

    public boolean scaled() {
        return scale != null;
    }

    /** Values per block on each side: size values one way; the scale (if any) and size elements the other. */
    public int valuesPerBlock(boolean blockSide) {
        return blockSide && scaled() ? size + 1 : size;
    }

    /** The format of value i of a block (the scale first, then the elements). */
    public Format blockValueFormat(int i) {
        return i == 0 && scaled() ? scale : element;
    }

    /** "float->mxfp4_e2m1" (quantize) or "mxfp4_e2m1->float" (dequantize). */
    public String pairName(boolean toBlock) {
        return toBlock ? value.name() + "->" + name : name + "->" + value.name();
    }
}
