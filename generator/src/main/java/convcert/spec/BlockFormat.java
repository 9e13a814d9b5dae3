package convcert.spec;

import java.util.List;
import java.util.Set;

/**
 * One row of blocks.csv: a block-scaled format (OCP MX): size elements of one format sharing one
 * scale of an exponent-only format. A block converts from and to value, the wide format its data
 * comes from; value -> block rounds elements in each of modes, block -> value is exact but for
 * overflow (rn).
 */
public record BlockFormat(String name, List<String> aliases, Format element, Format scale, int size, Format value,
                          Set<Rounding> modes, String description, String source, Location location) {

    /** Values per block on each side: size values one way, one scale and size elements the other. */
    public int valuesPerBlock(boolean blockSide) {
        return blockSide ? size + 1 : size;
    }

    /** The format of value i of a block (the scale first, then the elements). */
    public Format blockValueFormat(int i) {
        return i == 0 ? scale : element;
    }

    /** "float->mxfp4_e2m1" (quantize) or "mxfp4_e2m1->float" (dequantize). */
    public String pairName(boolean toBlock) {
        return toBlock ? value.name() + "->" + name : name + "->" + value.name();
    }
}
