package convcert.reference;

import convcert.spec.Rounding;

/**
 * A fast path for a class of conversions, used for batches: each computes what the generic path
 * does from a few table-derived parameters, sending what it does not handle (NaN, infinity) to
 * the generic path. KernelTest checks every one against the generic path.
 */
sealed interface Kernel permits IeeeNarrowingKernel, FloatToIntegerKernel, IntegerToFloatKernel, IntegerToIntegerKernel,
        IntegralKernel, FloatWideningKernel, ExponentKernel, TaperedKernel {

    /** Converts in[inOffset..+count) into out[outOffset..]. */
    void apply(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic);

    /** As apply, where in[inOffset..+count) are consecutive bit patterns: a kernel may use that. */
    default void applyConsecutive(long[] in, int inOffset, long[] out, int outOffset, int count, Converter generic) {
        apply(in, inOffset, out, outOffset, count, generic);
    }

    /** The kernel for a case, or null for the generic path. */
    static Kernel of(Case c, Semantics s, Converter generic) {
        Kernel k = IeeeNarrowingKernel.of(c, s, generic);
        k = k != null ? k : FloatToIntegerKernel.of(c);
        k = k != null ? k : IntegerToFloatKernel.of(c, s, generic);
        k = k != null ? k : IntegerToIntegerKernel.of(c);
        k = k != null ? k : IntegralKernel.of(c);
        k = k != null ? k : FloatWideningKernel.of(c);
        k = k != null ? k : ExponentKernel.of(c, s, generic);
        return k != null ? k : TaperedKernel.of(c, s, generic);
    }

    /**
     * Whether a case rounds as the kernels can: by Rounder's table (not hybrid), subnormal results kept,
     * and no directed overflow to infinity (that decision looks at the discarded bits in the top binade).
     */
    static boolean tableRounding(Case c, Semantics s) {
        Rounding mode = c.rounding();
        return mode != Rounding.RH && s.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.KEEP
                && !(s.get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY
                        && (mode == Rounding.RZ || mode == Rounding.RU || mode == Rounding.RD));
    }
}
