package convcert.reference;

import convcert.spec.TensorShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A whole tensor through its block format (a row of tensors.csv): every block of the tensor gathered from
 * its positions, a last partial block padded with zeros (+0 values, or +0 elements), converted as one
 * block of blocks.csv, and its scale put in the layout's slot. Quantizing gives the stored scale layout
 * then the elements, row-major; dequantizing takes the same and gives the values. Padding slots of a
 * swizzled layout hold the zero code, judged or not by decision scale-padding.
 *
 * <p>A rotated tensor (TensorShape's rotation) has each block's values rotated first (HadamardRotation), and the rest
 * happens to the rotated values: its amax, its blocks.
 *
 * <p>Under a two-level block (NVFP4) the tensor's largest magnitude A leads the block side: the quantizer
 * finds it (the largest magnitude of the tensor's values; a NaN by decision tensor-amax-nan) and gives it
 * first; dequantizing takes it first. Every block converts under it.
 */
final class TensorQuantizer {

    private final TensorShape shape;
    private final BlockConverter block;
    private final boolean toBlock;
    private final int lead; // 1: A leads the block side (two-level)
    private final boolean judgePadding;
    private final Semantics semantics;
    private final int[] slotOf; // per value: the slot of its block's scale
    private final boolean[] padding; // per slot: no block's scale
    private final BlockFunction perBlock; // the block's own conversion, or a fault model's
    private final HadamardRotation.Reading rotation; // null: the values as given

    TensorQuantizer(BlockConverter block, TensorShape shape, Semantics semantics) {
        this(block, shape, semantics, (in, i, out, o) -> block.apply(in, i, out, o, 1), shape.rotation() == null ? null
                : new HadamardRotation.Reading(semantics.get(Semantics.ROTATION_SIGNS), true));
    }

    private TensorQuantizer(BlockConverter block, TensorShape shape, Semantics semantics, BlockFunction perBlock,
                            HadamardRotation.Reading rotation) {
        this.perBlock = perBlock;
        this.rotation = rotation;
        this.shape = shape;
        this.block = block;
        this.toBlock = block.toBlock();
        this.lead = shape.block().twoLevel() ? 1 : 0;
        this.semantics = semantics;
        this.judgePadding = semantics.get(Semantics.SCALE_PADDING) == Semantics.ScalePadding.ZERO;
        this.slotOf = new int[shape.values()];
        this.padding = new boolean[shape.scales()];
        Arrays.fill(padding, true);
        for (int o = 0; o < shape.outer(); o++) {
            for (int i = 0; i < shape.inner(); i++) {
                int slot = shape.scaleSlot(o, i);
                padding[slot] = false;
                for (int j = 0; j < size(); j++) {
                    int p = shape.position(o, i, j);
                    if (p >= 0) {
                        slotOf[p] = slot;
                    }
                }
            }
        }
    }

    /** The same tensor with each block converted by another function. */
    TensorQuantizer with(BlockFunction other) {
        return new TensorQuantizer(block, shape, semantics, other, rotation);
    }

    /** The same tensor with its values rotated under another reading (null: not at all); a fault model's. */
    TensorQuantizer rotatedBy(HadamardRotation.Reading reading) {
        return new TensorQuantizer(block, shape, semantics, perBlock, reading);
    }

    /**
     * One tensor's inputs with its values rotated, block by block (TensorShape's rotation; quantizing only), copied
     * from in[offset..); or in itself where nothing rotates.
     */
    private long[] rotated(long[] in, int offset) {
        if (rotation == null || !toBlock) {
            return in;
        }
        long[] x = Arrays.copyOfRange(in, offset, offset + shape.values() * (block.stochastic() ? 2 : 1)); // values, random bits
        float[] group = new float[size()];
        for (int o = 0; o < shape.outer(); o++) {
            for (int i = 0; i < shape.inner(); i++) {
                for (int j = 0; j < size(); j++) {
                    group[j] = Float.intBitsToFloat((int) x[shape.position(o, i, j)]);
                }
                float[] y = HadamardRotation.rotate(group, shape.rotation(), rotation);
                for (int j = 0; j < size(); j++) {
                    x[shape.position(o, i, j)] = Float.floatToRawIntBits(y[j]) & 0xFFFFFFFFL;
                }
            }
        }
        return x;
    }

    BlockConverter block() {
        return block;
    }

    private int size() {
        return shape.block().size();
    }

    /** Where the scales start on the block side (after A), and the elements. */
    private int scalesAt() {
        return lead;
    }

    private int elementsAt() {
        return lead + shape.scales();
    }

    /** One tensor: in[inOffset..) its inputs, out[outOffset..) its outputs. */
    void apply(long[] given, int givenOffset, long[] out, int outOffset) {
        long[] in = rotated(given, givenOffset);
        int inOffset = in == given ? givenOffset : 0;
        long[] one = new long[block.inputsPerBlock()];
        long[] result = new long[block.outputsPerBlock()];
        if (toBlock) {
            Arrays.fill(out, outOffset, outOffset + elementsAt(), 0);
            if (lead > 0) {
                out[outOffset] = largestMagnitude(in, inOffset);
            }
        }
        long amax = lead == 0 ? 0 : toBlock ? out[outOffset] : in[inOffset];
        for (int o = 0; o < shape.outer(); o++) {
            for (int i = 0; i < shape.inner(); i++) {
                gather(in, inOffset, amax, o, i, one);
                perBlock.apply(one, 0, result, 0);
                if (toBlock) {
                    out[outOffset + scalesAt() + shape.scaleSlot(o, i)] = result[0];
                }
                for (int j = 0; j < size(); j++) {
                    int p = shape.position(o, i, j);
                    if (p >= 0) {
                        out[outOffset + (toBlock ? elementsAt() : 0) + p] = result[(toBlock ? 1 : 0) + j];
                    }
                }
            }
        }
    }

    /**
     * A: the binary32 largest magnitude of the tensor's values that are not NaN (+0 for none); a NaN makes it
     * the quiet NaN under tensor-amax-nan=propagate.
     */
    private long largestMagnitude(long[] in, int inOffset) {
        boolean propagate = semantics.get(Semantics.TENSOR_AMAX_NAN) == Semantics.TensorAmaxNan.PROPAGATE;
        float a = 0f;
        for (int p = 0; p < shape.values(); p++) {
            float x = Float.intBitsToFloat((int) in[inOffset + p]);
            if (Float.isNaN(x) && propagate) {
                return 0x7FC00000L;
            }
            a = Float.isNaN(x) ? a : Math.max(a, Math.abs(x));
        }
        return Float.floatToRawIntBits(a) & 0xFFFFFFFFL;
    }

    /**
     * Block (o, i)'s inputs as blocks.csv lays them out: [A,] its values, or [A,] its scale then its elements. Under
     * rs the tensor's random bits follow its values, one per value in the same order, and a block's follow its own.
     */
    private void gather(long[] in, int inOffset, long amax, int o, int i, long[] one) {
        if (lead > 0) {
            one[0] = amax;
        }
        int first = lead + (toBlock ? 0 : 1);
        if (!toBlock) {
            one[lead] = in[inOffset + scalesAt() + shape.scaleSlot(o, i)];
        }
        for (int j = 0; j < size(); j++) {
            int p = shape.position(o, i, j);
            one[first + j] = p < 0 ? 0 : in[inOffset + (toBlock ? 0 : elementsAt()) + p];
            if (block.stochastic()) {
                one[first + size() + j] = p < 0 ? 0 : in[inOffset + shape.values() + p];
            }
        }
    }

    /** Whether output i is judged: not a padding slot (unless scale-padding=zero), nor an element under a NaN scale. */
    boolean compared(long[] expected, int offset, int i) {
        if (!toBlock || i < scalesAt()) {
            return true;
        }
        return i < elementsAt() ? !padding[i - scalesAt()] || judgePadding
                : !block.nanScale(expected[offset + scalesAt() + slotOf[i - elementsAt()]]);
    }

    /** Output i in words: "scale of row 3, block 1 (slot 49)", "scale padding (slot 7)", "element [3, 40]". */
    String part(int i) {
        if (toBlock && i < scalesAt()) {
            return "tensor amax A";
        }
        if (toBlock && i < elementsAt()) {
            int[] b = blockAt(i - scalesAt());
            return b == null ? "scale padding (slot " + (i - scalesAt()) + ")" : "scale of " + (shape.along()
                    == TensorShape.Along.ROW ? "row " : "column ") + b[0] + ", block " + b[1] + " (slot " + (i - scalesAt()) + ")";
        }
        int p = i - (toBlock ? elementsAt() : 0);
        return (toBlock ? "element" : "value") + " [" + p / shape.columns() + ", " + p % shape.columns() + "]";
    }

    /** The grid position (o, i) of the block whose scale lies in slot, or null for padding. */
    private int[] blockAt(int slot) {
        for (int o = 0; o < shape.outer(); o++) {
            for (int i = 0; i < shape.inner(); i++) {
                if (shape.scaleSlot(o, i) == slot) {
                    return new int[] {o, i};
                }
            }
        }
        return null;
    }

    /** The grid position of the block output i belongs to, or null for A and a padding slot. */
    private int[] blockOf(int i) {
        if (toBlock && i < scalesAt()) {
            return null;
        }
        if (toBlock && i < elementsAt()) {
            return blockAt(i - scalesAt());
        }
        int p = i - (toBlock ? elementsAt() : 0);
        int r = p / shape.columns();
        int c = p % shape.columns();
        return shape.along() == TensorShape.Along.ROW ? new int[] {r, c / size()} : new int[] {c, r / size()};
    }

    /** The inputs of the block output i belongs to (indices into one tensor's inputs); none for A and padding. */
    List<Integer> inputsOf(int i) {
        int[] b = blockOf(i);
        List<Integer> inputs = new ArrayList<>();
        if (b == null) {
            return inputs;
        }
        if (!toBlock) {
            inputs.addAll(lead > 0 ? List.of(0) : List.of());
            inputs.add(scalesAt() + shape.scaleSlot(b[0], b[1]));
        }
        for (int j = 0; j < size(); j++) {
            int p = shape.position(b[0], b[1], j);
            if (p >= 0) {
                inputs.add((toBlock ? 0 : elementsAt()) + p);
                if (block.stochastic()) {
                    inputs.add(shape.values() + p);
                }
            }
        }
        return inputs;
    }

    /** How the tensor converts, and the block of output i in detail. */
    List<String> explain(long[] given, int givenOffset, int i) {
        long[] in = rotated(given, givenOffset);
        int offset = in == given ? givenOffset : 0;
        List<String> lines = new ArrayList<>();
        if (in != given) {
            lines.add("each block's values first rotated by " + shape.rotation().word() + " (decision rotation-signs="
                    + Semantics.optionName(rotation.signs()) + "); the blocks below are of the rotated values");
        }
        lines.add(shape.rows() + " x " + shape.columns() + " values in blocks of " + size() + " along each "
                + (shape.along() == TensorShape.Along.ROW ? "row" : "column") + " (" + shape.block().name()
                + ", a partial block padded with zeros), scales in layout " + shape.layout().word() + " ("
                + shape.scales() + " slots; padding holds the zero code, decision scale-padding="
                + (judgePadding ? "zero" : "any") + ")" + (lead == 0 ? "" : "; the tensor's amax A, "
                + Float.intBitsToFloat((int) (toBlock ? largestMagnitude(in, offset) : in[offset]))
                + ", leads the block side"));
        int[] b = blockOf(i);
        if (b != null) {
            long[] one = new long[block.inputsPerBlock()];
            gather(in, offset, toBlock ? (lead == 0 ? 0 : largestMagnitude(in, offset)) : in[offset], b[0], b[1], one);
            lines.add("block " + b[1] + " of " + (shape.along() == TensorShape.Along.ROW ? "row " : "column ") + b[0] + ":");
            lines.addAll(block.explain(one, 0));
        }
        return lines;
    }
}
