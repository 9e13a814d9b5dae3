package convcert.reference;

import convcert.spec.BlockFormat;
import convcert.spec.Format;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.TensorShape;
import convcert.spi.CaseId;
import convcert.spi.CaseKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The conversion between a block of values and a block-scaled format (OCP MX v1.0 section 6.3):
 * value -> block finds the largest magnitude, derives the shared scale from it (decision mx-scale;
 * NaN by mx-nan, infinity by mx-infinity), and converts each value divided by the scale to an element, exactly
 * and saturating normal numbers; block -> value multiplies each element by the scale, exactly, then
 * rounds rn into the value format (only overflow can round). A NaN scale makes every value of the
 * block NaN whatever its elements (OCP MX v1.0 section 5), so those elements are not compared.
 *
 * <p>Block layout: value -> block takes size values and gives the scale then size elements;
 * block -> value the reverse. A two-level format (NVFP4) converts by its recipe ({@link TwoLevelRecipe}),
 * with the tensor's largest magnitude before the inputs.
 */
public final class BlockConverter {

    /**
     * The decisions a block's values read, beside its element conversion's: a block recipe's choices, and how
     * its elements read their random bits under rs (nibble-order is how packed elements are stored, not what
     * they are).
     */
    public static final List<Semantics.Switch<?>> RECIPE = List.of(Semantics.MX_SCALE, Semantics.MX_NAN,
            Semantics.MX_INFINITY, Semantics.TENSOR_SCALE_ARITHMETIC, Semantics.BLOCK_SCALE_ROUNDING,
            Semantics.BLOCK_SCALE_MINIMUM, Semantics.BLOCK_SCALE_SIGN, Semantics.BLOCK_SCALE_CHOICE, Semantics.TENSOR_SCALE_MAXIMUM,
            Semantics.ZERO_AMAX, Semantics.ELEMENT_ZERO_SIGN, Semantics.SCALE_PADDING, Semantics.TENSOR_AMAX_NAN,
            Semantics.ROTATION_SIGNS, Semantics.STOCHASTIC_ROUNDING);

    private final BlockFormat block;
    private final Rounding mode;
    private final boolean toBlock;
    private final Semantics semantics;
    private final FormatCodec value;
    private final FormatCodec element;
    private final FormatCodec scale;
    private final ElementConversion elements;
    private final int smallestScale;
    private final int largestScale;
    private final Decoded largestElement;
    private final TwoLevelRecipe recipe;
    private final TensorQuantizer tensor;
    private final List<Format> inputs; // made once: a tensor's run to tens of thousands
    private final List<Format> outputs;

    /** elements: the element conversion in the reference's place (a fault model's), or null for the reference's. */
    BlockConverter(Reference reference, BlockFormat block, Rounding mode, boolean toBlock, ElementConversion elements) {
        this.block = block;
        this.mode = toBlock ? mode : Rounding.RN;
        this.toBlock = toBlock;
        this.semantics = reference.semantics();
        this.value = reference.codec(block.value());
        this.element = reference.codec(block.element());
        this.scale = block.scaled() ? reference.codec(block.scale()) : null;
        String why = "element of " + block.name() + " (" + block.location() + ")";
        this.elements = elements != null ? elements : toBlock
                ? reference.unlisted(block.value(), block.element(), this.mode, Saturation.SAT, randomBits(block), why)
                : reference.unlisted(block.element(), block.value(), Rounding.RN, Saturation.NOSAT, why);
        this.smallestScale = scale == null ? 0 : scale.decode(0).exponent();
        this.largestScale = scale == null ? 0 : scale.decode(block.scale().maxFinite()).exponent();
        this.largestElement = element.decode(block.element().maxFinite());
        this.recipe = block.twoLevel() ? new TwoLevelRecipe(reference, block, this.mode, elements) : null;
        this.inputs = block.inputs(toBlock, this.mode);
        this.outputs = block.outputs(toBlock);
        this.tensor = block.extent() instanceof TensorShape shape
                ? new TensorQuantizer(new BlockConverter(reference, shape.block(), mode, toBlock, elements), shape, semantics) : null;
    }

    public BlockFormat block() {
        return block;
    }

    /** The value conversion each element takes (value -> element, or element -> value). */
    public Case elementCase() {
        return elements.spec();
    }

    /** The random bits each element takes under rs (0 without). */
    static int randomBits(BlockFormat block) {
        return block.random() == null ? 0 : block.random().width();
    }

    /** Whether each value of a block takes random bits (rs): they follow the values, in the same order. */
    public boolean stochastic() {
        return toBlock && mode.stochastic();
    }

    /**
     * The operand value i of a block converts from (values start at first): the value, and under rs its
     * random bits above it, which follow the block's size values.
     */
    static long operand(ElementConversion elements, long[] in, int first, int size, int i) {
        long value = in[first + i];
        return elements.operands().randomBits() == 0 ? value : elements.operands().operand(value, in[first + size + i]);
    }

    /** Whether packed elements put the first of a pair in the high nibble (decision nibble-order). */
    public boolean highNibbleFirst() {
        return semantics.get(Semantics.NIBBLE_ORDER) == Semantics.NibbleOrder.HIGH_FIRST;
    }

    public Rounding mode() {
        return mode;
    }

    public boolean toBlock() {
        return toBlock;
    }

    public String pairName() {
        return block.pairName(toBlock);
    }

    /** The case's identity: FROM->TO is the value format and the block format, in the direction of the case. */
    public CaseId.Block id(String profile) {
        String from = toBlock ? block.value().name() : block.name();
        String to = toBlock ? block.name() : block.value().name();
        return new CaseId.Block(profile, from, to, mode.suffix(), block.isTensor() ? CaseKind.TENSOR : CaseKind.BLOCK);
    }

    public int inputsPerBlock() {
        return inputs.size();
    }

    public int outputsPerBlock() {
        return outputs.size();
    }

    /** The format of input i of a block. */
    public Format inputFormat(int i) {
        return inputs.get(i);
    }

    /** The format of output i of a block. */
    public Format outputFormat(int i) {
        return outputs.get(i);
    }

    /** The codec of output i of a block. */
    public FormatCodec outputCodec(int i) {
        int lead = outputs.size() - block.scales() - block.elements(); // a two-level tensor's A
        return !toBlock || i < lead ? value : i < lead + block.scales() ? scale : element;
    }

    /** Converts blocks: in[inOffset..) holds blocks x inputsPerBlock values, out receives blocks x outputsPerBlock. */
    public void apply(long[] in, int inOffset, long[] out, int outOffset, int blocks) {
        for (int b = 0; b < blocks; b++) {
            int i = inOffset + b * inputsPerBlock();
            int o = outOffset + b * outputsPerBlock();
            if (tensor != null) {
                tensor.apply(in, i, out, o);
            } else if (recipe != null && toBlock) {
                recipe.quantize(in, i, out, o, null);
            } else if (recipe != null) {
                recipe.dequantize(in, i, out, o);
            } else if (toBlock) {
                quantize(in, i, out, o, null);
            } else {
                dequantize(in, i, out, o);
            }
        }
    }

    /**
     * Whether output i of a block is judged: not the elements of a block whose scale is NaN (they mean
     * nothing), nor their expected zeros. expected holds the block's outputs from offset.
     */
    public boolean compared(long[] expected, int offset, int i) {
        if (tensor != null) {
            return tensor.compared(expected, offset, i);
        }
        return !toBlock || scale == null || i == 0 || !nanScale(expected[offset]);
    }

    /** Whether a scale code is NaN. */
    boolean nanScale(long code) {
        return scale.decode(code).kind() == Decoded.Kind.NAN;
    }

    /** Output i of a block in words: "scale", "element 3", "value 3"; a tensor's names its row and column. */
    public String part(int i) {
        if (tensor != null) {
            return tensor.part(i);
        }
        return !toBlock ? "value " + i : scale != null && i == 0 ? "scale" : "element " + (i - (scale != null ? 1 : 0));
    }

    /** The inputs output i depends on: every input of a block, the inputs of its own block in a tensor. */
    public List<Integer> inputsOf(int i) {
        return tensor != null ? tensor.inputsOf(i) : IntStream.range(0, inputsPerBlock()).boxed().toList();
    }

    /** How the block (or, in a tensor, the block of output i) converts: the scale's derivation and each output. */
    public List<String> explain(long[] in, int offset, int i) {
        return tensor != null ? tensor.explain(in, offset, i) : explain(in, offset);
    }

    /** The shared scale's exponent for a block, or null for a NaN scale; notes collects why when not null. */
    private Integer sharedScale(long[] in, int offset, List<String> notes) {
        Decoded max = null;
        boolean nan = false;
        boolean infinite = false;
        int nans = 0;
        for (int i = 0; i < block.size(); i++) {
            Decoded d = value.decode(in[offset + i]);
            switch (d.kind()) {
                case NAN -> {
                    nan = true;
                    nans++;
                }
                case INFINITE -> infinite = true;
                case FINITE -> max = max == null || greater(d, max) ? d : max;
                case ZERO -> { }
            }
        }
        if (nan && (semantics.get(Semantics.MX_NAN) == Semantics.MxNan.NAN_SCALE || nans == block.size())) {
            if (notes != null) notes.add("a NaN value makes the scale NaN (decision mx-nan="
                    + Semantics.optionName(semantics.get(Semantics.MX_NAN)) + ")");
            return null;
        }
        if (infinite) {
            boolean nanScale = semantics.get(Semantics.MX_INFINITY) == Semantics.MxInfinity.NAN_SCALE;
            if (notes != null) notes.add("an infinite value " + (nanScale ? "makes the scale NaN" : "gives the largest scale 2^"
                    + largestScale + " and saturates") + " (decision mx-infinity="
                    + Semantics.optionName(semantics.get(Semantics.MX_INFINITY)) + ")");
            return nanScale ? null : largestScale;
        }
        if (max == null) {
            if (notes != null) notes.add("every value is zero" + (nan ? " or NaN" : "") + ": the smallest scale 2^"
                    + smallestScale + " (as log2(0) = -inf is clamped)");
            return smallestScale;
        }
        int e = max.binade();
        int emax = element.maxExponent();
        int s = switch (semantics.get(Semantics.MX_SCALE)) {
            case FLOOR -> e - emax;
            case CEIL -> e + (isPowerOfTwo(max) ? 0 : 1) - emax;
            case EVEN -> e + (carriesAtWidth(max, block.element().mantissaBits()) ? 1 : 0) - emax;
            case RCEIL -> ceilingQuotient(max);
        };
        if (notes != null) notes.add("largest magnitude " + Values.text(Values.exact(false, max.significand(), max.exponent()))
                + " (binade 2^" + e + "), largest element binade 2^" + emax + ": scale 2^" + s
                + " (decision mx-scale=" + Semantics.optionName(semantics.get(Semantics.MX_SCALE)) + ")");
        if (s > largestScale) {
            if (notes != null) notes.add("beyond the largest scale 2^" + largestScale + ": NaN");
            return null;
        }
        if (s < smallestScale) {
            if (notes != null) notes.add("clamped to the smallest scale 2^" + smallestScale);
            return smallestScale;
        }
        return s;
    }

    private void quantize(long[] in, int offset, long[] out, int outOffset, List<String> notes) {
        if (scale == null) { // a packed vector: each value converted on its own
            for (int i = 0; i < block.size(); i++) {
                out[outOffset + i] = elements.apply(operand(elements, in, offset, block.size(), i));
            }
            return;
        }
        Integer s = sharedScale(in, offset, notes);
        quantizeUnder(s == null ? block.scale().nan() : s + block.scale().bias(), in, offset, out, outOffset);
    }

    /**
     * A one-level block's outputs under a given scale code: the code, then each value divided by the scale
     * and converted as an element (zeros under the NaN code). The shared scale is value -> block's own
     * choice; a fault model gives another here.
     */
    public void quantizeUnder(long scaleCode, long[] in, int offset, long[] out, int outOffset) {
        out[outOffset] = scaleCode;
        if (nanScale(scaleCode)) {
            Arrays.fill(out, outOffset + 1, outOffset + 1 + block.size(), 0);
            return;
        }
        int s = (int) scaleCode - block.scale().bias();
        for (int i = 0; i < block.size(); i++) {
            out[outOffset + 1 + i] = elements.applyScaled(operand(elements, in, offset, block.size(), i), -s);
        }
    }

    /** The scale code value -> block gives a one-level block. */
    public long scaleOf(long[] in, int offset) {
        long[] out = new long[outputsPerBlock()];
        quantize(in, offset, out, 0, null);
        return out[0];
    }

    /** The block of blocks.csv a case converts: its own, or a tensor's. */
    public BlockConverter blocks() {
        return tensor == null ? this : tensor.block();
    }

    /**
     * One vector of this case (a block, or a tensor) with each of its blocks converted by perBlock instead: a
     * fault model's conversion, placed as the case places its blocks.
     */
    public BlockFunction withBlocks(BlockFunction perBlock) {
        return tensor == null ? perBlock : tensor.with(perBlock)::apply;
    }

    /** One vector of a rotated tensor case with its values not rotated, or rotated without 1 / sqrt(size); null for another case. */
    public BlockFunction rotatedBy(boolean rotated, boolean normalized) {
        return !(block.extent() instanceof TensorShape t) || t.rotation() == null || !toBlock ? null : tensor.rotatedBy(!rotated ? null
                : new HadamardRotation.Reading(semantics.get(Semantics.ROTATION_SIGNS), normalized))::apply;
    }

    private void dequantize(long[] in, int offset, long[] out, int outOffset) {
        if (scale == null) {
            for (int i = 0; i < block.size(); i++) {
                out[outOffset + i] = elements.apply(in[offset + i]);
            }
            return;
        }
        Decoded x = scale.decode(in[offset]);
        for (int i = 0; i < block.size(); i++) {
            out[outOffset + i] = x.kind() == Decoded.Kind.NAN ? block.value().nan()
                    : elements.applyScaled(in[offset + 1 + i], x.exponent());
        }
    }

    /** How one block converts: the scale's derivation and each output; for messages. */
    public List<String> explain(long[] in, int offset) {
        List<String> lines = new ArrayList<>();
        if (scale == null) {
            lines.add("no scale: each value converts on its own (" + block.location() + ")");
        } else if (recipe != null && toBlock) {
            recipe.quantize(in, offset, new long[outputsPerBlock()], 0, lines);
        } else if (recipe != null) {
            lines.add(recipe.explainDequantize(in, offset));
        } else if (toBlock) {
            long[] out = new long[outputsPerBlock()];
            quantize(in, offset, out, 0, lines);
        } else {
            Decoded x = scale.decode(in[offset]);
            lines.add(x.kind() == Decoded.Kind.NAN ? "the scale is NaN: every value is NaN (OCP MX v1.0 section 5)"
                    : "scale 2^" + x.exponent() + ": each element times 2^" + x.exponent() + ", exact, then "
                    + block.value().name() + " rn (only overflow rounds)");
        }
        return lines;
    }

    private static boolean greater(Decoded a, Decoded b) {
        if (a.binade() != b.binade()) {
            return a.binade() > b.binade();
        }
        long x = a.significand() << Long.numberOfLeadingZeros(a.significand());
        long y = b.significand() << Long.numberOfLeadingZeros(b.significand());
        return Long.compareUnsigned(x, y) > 0;
    }

    private static boolean isPowerOfTwo(Decoded d) {
        return Long.bitCount(d.significand()) == 1;
    }

    /** Whether rounding |d| to m fraction bits, ties up, reaches the next binade (all m bits and the next are ones). */
    private static boolean carriesAtWidth(Decoded d, int m) {
        int fraction = 63 - Long.numberOfLeadingZeros(d.significand());
        if (fraction <= m) {
            return false;
        }
        long bits = d.significand() & ((1L << fraction) - 1); // below the leading one
        long threshold = (1L << fraction) - (1L << (fraction - m - 1));
        return bits >= threshold;
    }

    /** The smallest s with 2^s * largest element >= |max|: ceil(log2(max / largest element)). */
    private int ceilingQuotient(Decoded max) {
        int s = max.binade() - element.maxExponent() - 1;
        while (!atLeast(largestElement, s, max)) {
            s++;
        }
        return s;
    }

    /** Whether m * 2^s >= v, exactly. */
    private static boolean atLeast(Decoded m, int s, Decoded v) {
        int shift = m.exponent() + s - v.exponent();
        BigInteger left = BigInteger.valueOf(m.significand());
        BigInteger right = BigInteger.valueOf(v.significand());
        if (shift >= 0) {
            left = left.shiftLeft(shift);
        } else {
            right = right.shiftLeft(-shift);
        }
        return left.compareTo(right) >= 0;
    }
}
