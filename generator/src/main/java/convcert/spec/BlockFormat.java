package convcert.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * One row of blocks.csv: size elements of one format, sharing one scale (OCP MX: an exponent-only
 * scale; NVFP4: a floating scale under a per-tensor scale), or with no scale (a packed vector such as
 * CUDA's fp4x2). A block converts from and to value, the wide format its data comes from; value ->
 * block rounds elements in each of modes, block -> value is exact but for overflow (rn) where the scale
 * is a power of two. tensorScale: the format of the tensor's largest magnitude, the input a two-level
 * recipe derives its per-tensor scale from (null: one level). packed: elements of up to 4 bits are
 * stored two per byte, the first in the low nibble; otherwise every value takes bytes of its own.
 * extent: what a case converts at once, one block (a row of blocks.csv) or, for a row of tensors.csv, the
 * whole tensor in blocks of this format's size. random: under rs (stochastic rounding), the unsigned
 * integer format of the random bits each element takes, as many bits as its width (null without rs).
 */
public record BlockFormat(String name, List<String> aliases, Format element, Format scale, Format tensorScale, int size,
                          Format value, Set<Rounding> modes, boolean packed, Format random, String description,
                          String source, Location location, BlockExtent extent) {

    /** A row of blocks.csv. */
    public BlockFormat(String name, List<String> aliases, Format element, Format scale, Format tensorScale, int size,
                       Format value, Set<Rounding> modes, boolean packed, Format random, String description, String source,
                       Location location) {
        this(name, aliases, element, scale, tensorScale, size, value, modes, packed, random, description, source, location,
                BlockExtent.ONE_BLOCK);
    }

    /** Scales on the block side: one (a scaled block), none (a packed vector), or a tensor's stored layout. */
    public int scales() {
        return switch (extent) {
            case TensorShape t -> t.scales();
            case BlockExtent.OneBlock one -> scaled() ? 1 : 0;
        };
    }

    /** Elements on the block side: size, or a tensor's values. */
    public int elements() {
        return switch (extent) {
            case TensorShape t -> t.values();
            case BlockExtent.OneBlock one -> size;
        };
    }

    /** Whether a case of it converts a whole tensor (a row of tensors.csv). */
    public boolean isTensor() {
        return extent instanceof TensorShape;
    }

    public boolean scaled() {
        return scale != null;
    }

    /** Whether a per-tensor scale sits above the block scales (NVFP4). */
    public boolean twoLevel() {
        return tensorScale != null;
    }

    /**
     * The formats of a block's inputs, in order: value -> block takes the tensor's largest magnitude
     * (two-level formats) and size values, then under rs each value's random bits in the same order;
     * block -> value the tensor's largest magnitude, the scale and size elements.
     */
    public List<Format> inputs(boolean toBlock, Rounding mode) {
        List<Format> formats = new ArrayList<>();
        if (twoLevel() && (!isTensor() || !toBlock)) { // a tensor's quantizer finds A itself
            formats.add(tensorScale);
        }
        formats.addAll(toBlock ? Collections.nCopies(elements(), value) : blockSide());
        if (toBlock && mode.stochastic()) {
            formats.addAll(Collections.nCopies(elements(), random));
        }
        return List.copyOf(formats);
    }

    /** The formats of a block's outputs: the scale and size elements (a two-level tensor's A first), or size values. */
    public List<Format> outputs(boolean toBlock) {
        List<Format> formats = new ArrayList<>();
        if (twoLevel() && isTensor() && toBlock) { // and gives the A it found
            formats.add(tensorScale);
        }
        formats.addAll(toBlock ? blockSide() : Collections.nCopies(elements(), value));
        return List.copyOf(formats);
    }

    private List<Format> blockSide() {
        List<Format> formats = new ArrayList<>();
        formats.addAll(Collections.nCopies(scales(), scale));
        formats.addAll(Collections.nCopies(elements(), element));
        return formats;
    }

    /** "float->mxfp4_e2m1" (quantize) or "mxfp4_e2m1->float" (dequantize). */
    public String pairName(boolean toBlock) {
        return toBlock ? value.name() + "->" + name : name + "->" + value.name();
    }
}
