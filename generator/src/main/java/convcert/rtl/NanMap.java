package convcert.rtl;

import convcert.common.UsageException;
import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.NaNs;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a case gives for a NaN input, as the reference computes it, written as an affine map of the input's
 * bits: for a NaN x with sign s, result = base_s XOR (XOR of delta_s,i over the bits i in which x differs from
 * the probe NaN of sign s). Quieting, keeping the leading payload bits, the canonical NaN, a NaN to zero under
 * saturation: each is such a map. It is measured on probe NaNs and checked on random ones; a case whose NaN
 * results are no affine map has no model.
 */
record NanMap(long[] probe, long[] base, List<long[]> deltas, boolean[] has) {

    private static final int CHECKS = 4096;

    static NanMap of(Converter converter) {
        FormatCodec src = converter.source();
        NaNs.Rule rule = NaNs.rule(src);
        long width = src.format().mask();
        long[] probe = new long[2];
        long[] base = new long[2];
        boolean[] has = new boolean[2];
        List<long[]> deltas = new ArrayList<>();
        if (rule == null) {
            return new NanMap(probe, base, deltas, has);
        }
        long free = width & ~rule.mask() & ~src.signBit();
        for (int s = 0; s < 2; s++) {
            long y = src.signedNan(s == 1);
            has[s] = NaNs.isNaN(src, y) && ((y & src.signBit()) != 0) == (s == 1);
            probe[s] = y;
            base[s] = has[s] ? converter.apply(y) : 0;
        }
        for (int bit = 0; bit < src.format().width(); bit++) {
            long b = 1L << bit;
            if ((free & b) == 0) {
                continue;
            }
            long[] delta = new long[2];
            for (int s = 0; s < 2; s++) {
                if (has[s]) {
                    delta[s] = delta(converter, src, probe[s], b, free);
                }
            }
            deltas.add(new long[] {b, delta[0], delta[1]});
        }
        NanMap map = new NanMap(probe, base, deltas, has);
        SplittableRandom random = new SplittableRandom(40);
        for (int k = 0; k < CHECKS; k++) {
            long x = rule.equals() | random.nextLong() & free | (random.nextBoolean() ? src.signBit() : 0);
            if (NaNs.isNaN(src, x) && converter.apply(x) != map.apply(x, src.signBit())) {
                throw new UsageException("no RTL model for " + converter.spec().describe() + ": its NaN results are no affine "
                        + "map of the input's bits (input " + src.format().hex(x) + ")");
            }
        }
        return map;
    }

    /** How flipping bit b changes the result, measured where both NaNs exist (beside another free bit if need be). */
    private static long delta(Converter converter, FormatCodec src, long y, long b, long free) {
        List<Long> others = new ArrayList<>(List.of(0L));
        for (long rest = free & ~b; rest != 0; rest &= rest - 1) {
            others.add(Long.lowestOneBit(rest));
        }
        for (long other : others) {
            long a = y ^ other;
            if (NaNs.isNaN(src, a) && NaNs.isNaN(src, a ^ b)) {
                return converter.apply(a ^ b) ^ converter.apply(a);
            }
        }
        return 0; // no two NaNs differ in b alone: the bit never varies between NaNs
    }

    long apply(long x, long signBit) {
        int s = (x & signBit) != 0 ? 1 : 0;
        long r = base[s];
        long d = x ^ probe[s];
        for (long[] delta : deltas) {
            if ((d & delta[0]) != 0) {
                r ^= delta[1 + s];
            }
        }
        return r;
    }

    /** The source's NaN rule as an expression on in (1'b0 where it has no NaN). */
    static String test(FormatCodec codec) {
        NaNs.Rule rule = NaNs.rule(codec);
        if (rule == null) {
            return "1'b0";
        }
        int wi = codec.format().width();
        return "(in & " + ReferenceModel.hex(wi, rule.mask()) + ") == " + ReferenceModel.hex(wi, rule.equals())
                + (rule.nonzero() == 0 ? "" : " && (in & " + ReferenceModel.hex(wi, rule.nonzero()) + ") != 0");
    }

    /** The map as a SystemVerilog function nan_result(in); an unsigned source's NaNs all take the positive map. */
    String function(FormatCodec src, int wo) {
        int wi = src.format().width();
        StringBuilder f = new StringBuilder("  function automatic logic [").append(wo - 1).append(":0] nan_result(input logic [")
                .append(wi - 1).append(":0] x);\n")
                .append("    logic [").append(wi - 1).append(":0] d;\n")
                .append("    d = x ^ ").append(bySign(src, wi, probe)).append(";\n")
                .append("    nan_result = ").append(bySign(src, wo, base)).append(";\n");
        for (long[] delta : deltas) {
            if (delta[1] != 0 || delta[2] != 0) {
                f.append("    if (d[").append(Long.numberOfTrailingZeros(delta[0])).append("]) nan_result = nan_result ^ ")
                        .append(bySign(src, wo, new long[] {delta[1], delta[2]})).append(";\n");
            }
        }
        return f.append("  endfunction\n").toString();
    }

    /** A value of each sign, chosen by x's sign bit (the positive one where the source has none). */
    private static String bySign(FormatCodec src, int width, long[] values) {
        if (src.signBit() == 0) {
            return ReferenceModel.hex(width, values[0]);
        }
        return "(x[" + (src.format().width() - 1) + "] ? " + ReferenceModel.hex(width, values[1]) + " : "
                + ReferenceModel.hex(width, values[0]) + ")";
    }
}
