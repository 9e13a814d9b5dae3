package convcert.reference;

import convcert.spec.BlockFormat;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.util.Arrays;
import java.util.List;

/**
 * One block of a two-level block format (NVFP4: E2M1 elements, an E4M3 block scale, a binary32
 * per-tensor scale) converted by a quantization recipe. Unlike OCP MX, whose power-of-two scale makes
 * every step exact, the recipes are sequences of binary32 operations, each rounded to nearest even;
 * which operations is decision tensor-scale-arithmetic, and the block scale's rounding, least value,
 * sign and choice (4over6) are decisions too (spec-tables/README.md, "Two-level blocks"). The binary32 steps are Java float
 * arithmetic, which is IEEE 754 binary32 with round to nearest even; the scale and element conversions
 * are the reference's own.
 *
 * <p>Inputs: the tensor's largest magnitude A first (both directions), then the values, or the scale
 * and the elements.
 */
final class TwoLevelRecipe {

    private final Semantics semantics;
    private final int size;
    private final Converter toScale;
    private final Converter fromScale;
    private final ElementConversion toElement;
    private final Converter fromElement;
    private final long scaleSign;
    private final long scaleNan;
    /** M: the largest scale (or 256, decision tensor-scale-maximum) times the largest element (448 x 6 = 2688), exact in binary32. */
    private final float range;
    private final float largestElement;
    private final float smallestNormalScale;

    /** elements: the element conversion in the reference's place (a fault model's), or null for the reference's. */
    TwoLevelRecipe(Reference reference, BlockFormat block, Rounding mode, ElementConversion elements) {
        this.semantics = reference.semantics();
        this.size = block.size();
        String why = "block scale of " + block.name() + " (" + block.location() + ")";
        Rounding scaleMode = semantics.get(Semantics.BLOCK_SCALE_ROUNDING) == Semantics.BlockScaleRounding.RU
                ? Rounding.RU : Rounding.RN;
        this.toScale = reference.unlisted(block.value(), block.scale(), scaleMode, Saturation.SAT, why);
        this.fromScale = reference.unlisted(block.scale(), block.value(), Rounding.RN, Saturation.NOSAT, why);
        String element = "element of " + block.name() + " (" + block.location() + ")";
        this.toElement = elements != null ? elements : reference.unlisted(block.value(), block.element(), mode, Saturation.SAT,
                BlockConverter.randomBits(block), element);
        this.fromElement = reference.unlisted(block.element(), block.value(), Rounding.RN, Saturation.NOSAT, element);
        this.scaleSign = reference.codec(block.scale()).signBit();
        this.scaleNan = block.scale().nan();
        this.largestElement = asFloat(fromElement.apply(block.element().maxFinite()));
        float largestScale = semantics.get(Semantics.TENSOR_SCALE_MAXIMUM) == Semantics.TensorScaleMaximum.SCALE_256
                ? 256f : asFloat(fromScale.apply(block.scale().maxFinite()));
        this.range = largestScale * largestElement;
        this.smallestNormalScale = Math.scalb(1f, reference.codec(block.scale()).minExponent());
    }

    private static float asFloat(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static long bits(float f) {
        return Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
    }

    /** CUDA's fminf: the other operand where one is NaN. */
    private static float fminf(float a, float b) {
        return Float.isNaN(a) ? b : Float.isNaN(b) ? a : Math.min(a, b);
    }

    private Semantics.TensorScaleArithmetic arithmetic() {
        return semantics.get(Semantics.TENSOR_SCALE_ARITHMETIC);
    }

    private boolean divide() {
        return arithmetic() == Semantics.TensorScaleArithmetic.DIVIDE
                || arithmetic() == Semantics.TensorScaleArithmetic.DIVIDE_CONSTANT_RECIPROCAL
                || arithmetic() == Semantics.TensorScaleArithmetic.DIVIDE_MULTIPLY;
    }

    /** vLLM's global scale G = M x rn(1/A): PyTorch computes a number divided by a tensor as its reciprocal times the number. */
    private float globalScale(float amax) {
        return range * (1f / amax);
    }

    /** x / c for a constant c of the recipe: a true division, or (torchao on CUDA) x times rn(1/c). */
    private float byConstant(float x, float c) {
        return semantics.get(Semantics.TENSOR_SCALE_ARITHMETIC) == Semantics.TensorScaleArithmetic.DIVIDE_CONSTANT_RECIPROCAL
                ? x * (1f / c) : x / c;
    }

    /** The encode factor G = M / A of the reciprocal recipe: 1 where G underflows to 0 or (decision zero-amax) A is 0, at most FLT_MAX. */
    private float encodeFactor(float amax) {
        float g = fminf(range / amax, Float.MAX_VALUE);
        boolean unit = amax == 0f && semantics.get(Semantics.ZERO_AMAX) == Semantics.ZeroAmax.UNIT_SCALE;
        return unit || g == 0f ? 1f : g;
    }

    /** Values -> block: in[offset] is A, then size values; out receives the scale and size elements. */
    void quantize(long[] in, int offset, long[] out, int outOffset, List<String> notes) {
        float amax = asFloat(in[offset]);
        float a = 0f;
        int nans = 0;
        boolean infinite = false;
        for (int i = 0; i < size; i++) {
            float x = asFloat(in[offset + 1 + i]);
            if (Float.isNaN(x)) {
                nans++;
            } else {
                infinite |= Float.isInfinite(x);
                a = Math.max(a, Math.abs(x));
            }
        }
        if (nans > 0 && (semantics.get(Semantics.MX_NAN) == Semantics.MxNan.NAN_SCALE || nans == size)) {
            note(notes, "a NaN value makes the scale NaN (decision mx-nan=" + option(Semantics.MX_NAN) + ")");
            nanScale(out, outOffset);
            return;
        }
        if (infinite && semantics.get(Semantics.MX_INFINITY) == Semantics.MxInfinity.NAN_SCALE) {
            note(notes, "an infinite value makes the scale NaN (decision mx-infinity=nan-scale)");
            nanScale(out, outOffset);
            return;
        }
        float t = byConstant(amax, range);
        boolean amaxReciprocal = arithmetic() == Semantics.TensorScaleArithmetic.RECIPROCAL_AMAX;
        float g = amaxReciprocal ? globalScale(amax) : encodeFactor(amax);
        float s = switch (arithmetic()) {
            case DIVIDE, DIVIDE_CONSTANT_RECIPROCAL, DIVIDE_MULTIPLY -> byConstant(a, largestElement) / t;
            case RECIPROCAL_AMAX -> g * (a * (1f / largestElement));
            case RECIPROCAL -> a * (g * (1f / largestElement));
            case RECIPROCAL_DIVIDE_FIRST -> a / largestElement * g;
        };
        note(notes, "tensor amax " + amax + ", block amax " + a + ": " + switch (arithmetic()) {
            case DIVIDE, DIVIDE_CONSTANT_RECIPROCAL, DIVIDE_MULTIPLY ->
                    "T = A / " + range + " = " + t + ", s = (a / " + largestElement + ") / T = " + s;
            case RECIPROCAL_AMAX -> "G = " + range + " x rn(1/A) = " + g + ", s = G x (a x rn(1/" + largestElement + ")) = " + s;
            case RECIPROCAL -> "G = " + range + " / A = " + g + ", s = a x (G x rn(1/" + largestElement + ")) = " + s;
            case RECIPROCAL_DIVIDE_FIRST -> "G = " + range + " / A = " + g + ", s = (a / " + largestElement + ") x G = " + s;
        } + " (decisions tensor-scale-arithmetic=" + option(Semantics.TENSOR_SCALE_ARITHMETIC)
                + ", tensor-scale-maximum=" + option(Semantics.TENSOR_SCALE_MAXIMUM) + ")");
        if (s < smallestNormalScale && semantics.get(Semantics.BLOCK_SCALE_MINIMUM) == Semantics.BlockScaleMinimum.SMALLEST_NORMAL) {
            note(notes, "s raised to the scale's smallest normal " + smallestNormalScale + " (decision block-scale-minimum)");
            s = smallestNormalScale;
        }
        long code = toScale.apply(bits(s));
        float scale = asFloat(fromScale.apply(code));
        if (Float.isNaN(scale)) {
            note(notes, "s is NaN (0 / 0): the scale is NaN, and so is every value of the block");
            nanScale(out, outOffset);
            return;
        }
        out[outOffset] = code;
        note(notes, "block scale S = " + scale + " (s rounded " + option(Semantics.BLOCK_SCALE_ROUNDING)
                + ", saturating; decision block-scale-rounding)");
        elements(in, offset, scale, t, g, out, outOffset + 1, notes);
        if (semantics.get(Semantics.BLOCK_SCALE_CHOICE) != Semantics.BlockScaleChoice.SIX) {
            fourOverSix(in, offset, s, scale, t, g, out, outOffset, notes);
        }
    }

    /**
     * 4over6 (decision block-scale-choice): the block again under S4 from rn(s x 1.5), kept only where its
     * error is strictly less than S6's (out holds S6's block, six its scale decoded); the error is
     * TransformerEngine's, whatever the arithmetic: each value dequantized as ((q x S) x A) / M, in binary32.
     */
    private void fourOverSix(long[] in, int offset, float s, float six, float t, float g, long[] out, int outOffset,
                             List<String> notes) {
        long code = toScale.apply(bits(s * 1.5f));
        float four = asFloat(fromScale.apply(code));
        long[] candidate = new long[size];
        elements(in, offset, four, t, g, candidate, 0, null);
        float errorSix = error(in, offset, out, outOffset + 1, six);
        float errorFour = error(in, offset, candidate, 0, four);
        boolean keepFour = errorFour < errorSix;
        note(notes, "4over6: S4 = rn(s x 1.5) rounded = " + four + ", error " + errorFour + " against S6's " + errorSix
                + ": keeps S" + (keepFour ? "4" : "6") + " (decision block-scale-choice=" + option(Semantics.BLOCK_SCALE_CHOICE) + ")");
        if (keepFour) {
            out[outOffset] = code;
            System.arraycopy(candidate, 0, out, outOffset + 1, size);
        }
    }

    /** The sum over the block, from 0 in element order, of |d| or d x d, d = rn(((q x S) x A) / M) - x. */
    private float error(long[] in, int offset, long[] codes, int at, float scale) {
        float amax = asFloat(in[offset]);
        boolean squared = semantics.get(Semantics.BLOCK_SCALE_CHOICE) == Semantics.BlockScaleChoice.FOUR_OVER_SIX_MSE;
        float sum = 0f;
        for (int i = 0; i < size; i++) {
            float d = asFloat(fromElement.apply(codes[at + i])) * scale * amax / range - asFloat(in[offset + 1 + i]);
            sum += squared ? d * d : Math.abs(d);
        }
        return sum;
    }

    /** The block's elements under scale S, into out from outOffset. */
    private void elements(long[] in, int offset, float scale, float t, float g, long[] out, int outOffset, List<String> notes) {
        boolean amaxReciprocal = arithmetic() == Semantics.TensorScaleArithmetic.RECIPROCAL_AMAX;
        float d = scale * (1f / g);
        float r = amaxReciprocal ? (d == 0f ? 0f : 1f / d) : fminf(1f / d, Float.MAX_VALUE);
        float total = t * scale;
        // torchao 0.19 multiplies by (1 / T) / S, as the MSLK Triton kernel does, where it divided by T x S
        boolean multiply = arithmetic() == Semantics.TensorScaleArithmetic.DIVIDE_MULTIPLY;
        float inverse = (1f / t) / scale;
        note(notes, multiply ? "each element: x x (rn(1/T) / S), rn(1/T) / S = " + inverse
                : divide() ? "each element: x / (T x S), T x S = " + total
                : "each element: x x r, r = 1 / (S x rn(1/G)) = " + r
                + (amaxReciprocal ? " (0 where S x rn(1/G) is 0)" : " (at most FLT_MAX)"));
        if (toElement.operands().randomBits() > 0) {
            note(notes, "each element then rounds with its own " + toElement.operands().randomBits()
                    + " random bits (the inputs after the values), read as decision stochastic-rounding="
                    + option(Semantics.STOCHASTIC_ROUNDING) + " says");
        }
        boolean positiveZero = semantics.get(Semantics.ELEMENT_ZERO_SIGN) == Semantics.ElementZeroSign.POSITIVE;
        for (int i = 0; i < size; i++) {
            float x = asFloat(in[offset + 1 + i]);
            float scaled = multiply ? x * inverse : divide() ? x / total : x * r;
            long value = bits(positiveZero && scaled == 0f ? 0f : scaled);
            // under rs each element's random bits follow the values; the scaled binary32 value takes them
            out[outOffset + i] = toElement.operands().randomBits() == 0 ? toElement.apply(value)
                    : toElement.apply(toElement.operands().operand(value, in[offset + 1 + size + i]));
        }
    }

    private void nanScale(long[] out, int outOffset) {
        out[outOffset] = scaleNan;
        Arrays.fill(out, outOffset + 1, outOffset + 1 + size, 0);
    }

    /** Block -> values: in[offset] is A, then the scale and size elements; out receives size values. */
    void dequantize(long[] in, int offset, long[] out, int outOffset) {
        float amax = asFloat(in[offset]);
        float scale = scaleValue(in[offset + 1]);
        float factor = dequantizeFactor(amax, scale);
        for (int i = 0; i < size; i++) {
            out[outOffset + i] = bits(asFloat(fromElement.apply(in[offset + 2 + i])) * factor);
        }
    }

    /** The factor each element of a block is multiplied by when dequantized. */
    private float dequantizeFactor(float amax, float scale) {
        return switch (arithmetic()) {
            case DIVIDE, DIVIDE_CONSTANT_RECIPROCAL, DIVIDE_MULTIPLY -> byConstant(amax, range) * scale;
            case RECIPROCAL, RECIPROCAL_DIVIDE_FIRST -> scale * amax * (float) (1.0 / range);
            case RECIPROCAL_AMAX -> scale / globalScale(amax);
        };
    }

    private float scaleValue(long code) {
        boolean ignoreSign = semantics.get(Semantics.BLOCK_SCALE_SIGN) == Semantics.BlockScaleSign.IGNORE;
        return asFloat(fromScale.apply(ignoreSign ? code & ~scaleSign : code));
    }

    /** How a block dequantizes, for messages. */
    String explainDequantize(long[] in, int offset) {
        float amax = asFloat(in[offset]);
        float scale = scaleValue(in[offset + 1]);
        return "block scale " + scale + " (decision block-scale-sign=" + option(Semantics.BLOCK_SCALE_SIGN) + "), tensor amax "
                + amax + ": each element times " + switch (arithmetic()) {
                    case DIVIDE, DIVIDE_CONSTANT_RECIPROCAL, DIVIDE_MULTIPLY -> "(A / " + range + ") x S";
                    case RECIPROCAL, RECIPROCAL_DIVIDE_FIRST -> "(S x A) x rn(1/" + range + ")";
                    case RECIPROCAL_AMAX -> "S / (" + range + " x rn(1/A))";
                } + " = " + dequantizeFactor(amax, scale)
                + " in binary32 (decision tensor-scale-arithmetic=" + option(Semantics.TENSOR_SCALE_ARITHMETIC) + ")";
    }

    private String option(Semantics.Switch<?> decision) {
        return Semantics.optionName(semantics.get(decision));
    }

    private static void note(List<String> notes, String line) {
        if (notes != null) {
            notes.add(line);
        }
    }
}
