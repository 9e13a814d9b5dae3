package convcert.rtl;

import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.Semantics;
import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.util.List;
import java.util.Set;

/**
 * The datapath generation of a model: one arithmetic datapath for every pair of IEEE-style formats (layouts
 * ieee and ieee-fn: binary16/32/64, bfloat16, OCP FP8, FNUZ, FP6, FP4) and from integers to them: decode,
 * normalise, round at the destination's quantum in the case's mode, encode. The widths, biases and modes come
 * from the tables; what they say about zeros, infinities, overflow and NaNs is not restated here: those results
 * are the reference's own for probing inputs (a NaN's payload mapping as an affine function, checked on random
 * NaNs), so the model cannot read a table differently from the reference.
 */
final class Datapath {

    private static final Set<Rounding> MODES = Set.of(Rounding.RN, Rounding.RNA, Rounding.RZ, Rounding.RU, Rounding.RD, Rounding.RO);

    private Datapath() {
    }

    /** Why the case has no model, or null when it has one. */
    static String unsupported(Converter converter) {
        FormatCodec src = converter.source();
        FormatCodec dst = converter.destination();
        for (FormatCodec codec : src.isInteger() ? List.of(dst) : List.of(src, dst)) {
            Layout layout = codec.format().layout();
            if ((layout != Layout.IEEE && layout != Layout.IEEE_FN) || codec.signBit() == 0) {
                return codec.format().name() + " (layout " + layout.tableName() + (codec.signBit() == 0 ? ", unsigned" : "")
                        + ") is not an IEEE-style signed format";
            }
        }
        if (!MODES.contains(converter.spec().rounding())) {
            return "rounding " + converter.spec().rounding().suffix() + " is not one of rn rna rz ru rd ro";
        }
        if (converter.spec().conversion().integral()) {
            return "it rounds to an integral value of its own format";
        }
        if (converter.operands().laneBits() != 0) {
            return "the case takes a lane (random bits or a scale) beside each value";
        }
        Semantics s = converter.semantics();
        if (s.get(Semantics.SUBNORMAL_RESULTS) == Semantics.SubnormalResults.FLUSH) {
            return "decision subnormal-results=flush";
        }
        if (dst.fnuz() && s.get(Semantics.FNUZ_CLAMP) == Semantics.FnuzClamp.CLAMP_224) {
            return "decision e4m3fnuz-clamp=clamp-224";
        }
        return null;
    }

    /** The module for a case that has a datapath (unsupported gave null). */
    static String systemVerilog(Converter converter, String module) {
        FormatCodec src = converter.source();
        FormatCodec dst = converter.destination();
        Format in = src.format();
        Format out = dst.format();
        int wi = in.width();
        int wo = out.width();
        boolean integer = src.isInteger();
        int sm = integer ? wi - 1 : in.mantissaBits();   // an integer is its own significand: value = sig x 2^0
        int dm = out.mantissaBits();
        long maxMagnitude = out.maxFinite() & ~dst.signBit();
        int emaxD = (int) (maxMagnitude >>> dm) - out.bias();
        Rounding mode = converter.spec().rounding();
        boolean strict = converter.semantics().get(Semantics.DIRECTED_OVERFLOW) == Semantics.DirectedOverflow.INFINITY
                && converter.spec().saturation() != Saturation.SAT && (mode == Rounding.RZ || mode == Rounding.RU || mode == Rounding.RD);
        NanMap nans = NanMap.of(converter);
        StringBuilder v = new StringBuilder();
        v.append(declarations(converter, module, sm, emaxD))
                .append(nans.function(src, wo))
                .append("  always_comb begin\n")
                .append(integer ? integerDecode(in) : floatDecode(src, wi, sm))
                .append(normaliseAndRound(sm))
                .append("    up = ").append(increment(mode)).append(";\n")
                .append("    code = E > EMAX_D ? 0 : ((").append(wo + 1).append("'(E + DB - 1)) << DM) + ").append(wo + 1)
                .append("'(kept) + ").append(wo + 1).append("'(up);\n")
                .append("    overflow = E > EMAX_D || code > ").append(ReferenceModel.hex(wo + 1, maxMagnitude))
                .append(strict ? " || (code == " + ReferenceModel.hex(wo + 1, maxMagnitude) + " && (half || sticky))" : "").append(";\n")
                .append("    if (nan) out = nan_result(in);\n")
                .append(src.hasInfinity() ? "    else if (inf) out = sign ? " + ReferenceModel.hex(wo, converter.apply(src.infinity(true)))
                        + " : " + ReferenceModel.hex(wo, converter.apply(src.infinity(false))) + ";\n" : "")
                .append("    else if (zero || (!overflow && code == 0)) out = sign ? ")
                .append(result(converter, wo, integer ? 0 : src.zero(true)))
                .append(" : ").append(result(converter, wo, integer ? 0 : src.zero(false))).append(";\n")
                .append("    else if (overflow) out = sign ? ")
                .append(result(converter, wo, integer ? src.integerMin() : src.largestFinite(true)))
                .append(" : ").append(result(converter, wo, integer ? src.integerMax() : src.largestFinite(false))).append(";\n")
                .append("    else out = {sign, code[").append(wo - 2).append(":0]};\n")
                .append("  end\n")
                .append("endmodule\n");
        return v.toString();
    }

    /** The module's ports, its parameters (the formats' fields) and its signals. */
    private static String declarations(Converter converter, String module, int sm, int emaxD) {
        Format in = converter.source().format();
        Format out = converter.destination().format();
        int wi = in.width();
        int wo = out.width();
        int dm = out.mantissaBits();
        boolean integer = converter.source().isInteger();
        return new StringBuilder().append("// Generated by convcert from its tables: ").append(converter.spec().describe()).append(".\n")
                .append("// Every input gives the reference's result: its datapath, generated (Datapath.java).\n")
                .append("module ").append(module).append(" (input logic [").append(wi - 1).append(":0] in, output logic [")
                .append(wo - 1).append(":0] out);\n")
                .append("  localparam integer SM = ").append(sm).append(", SB = ")
                .append(integer ? 0 : in.bias()).append(", DM = ").append(dm)
                .append(", DB = ").append(out.bias()).append(", EMIN_D = ").append(1 - out.bias()).append(", EMAX_D = ")
                .append(emaxD).append(";\n")
                .append("  logic sign, nan, inf, zero, half, sticky, up, overflow;\n")
                .append("  logic [SM + 2:0] sig;   // the significand, two spare bits above it\n")
                .append("  logic [DM + 1:0] kept;\n")
                .append("  logic [").append(wo).append(":0] code;\n")
                .append("  integer e, lz, E, shift;\n")
                .toString();
    }

    /** Normalise the significand, find the result's binade and quantum, and the bits below it (half, sticky). */
    private static String normaliseAndRound(int sm) {
        return new StringBuilder()
                .append("    zero = sig == 0;\n")
                .append("    lz = 0;\n")
                .append("    for (integer k = 0; k <= SM; k = k + 1) if (sig[k]) lz = SM - k;   // the highest one wins\n")
                .append("    sig = sig << lz;\n")
                .append("    e = e - lz;\n")
                .append("    E = e < EMIN_D ? EMIN_D : e;   // the binade whose quantum the result takes\n")
                .append("    shift = SM - DM + (E - e);     // significand bits below that quantum\n")
                .append("    if (shift > SM + 2) shift = SM + 2;\n")
                .append("    if (shift <= 0) begin\n")
                .append("      kept = (DM + 2)'(sig << -shift);\n")
                .append("      half = 1'b0;\n")
                .append("      sticky = 1'b0;\n")
                .append("    end else begin\n")
                .append("      kept = (DM + 2)'(sig >> shift);\n")
                .append("      half = sig[shift - 1];\n")
                .append("      sticky = (sig & ((").append(sm + 3).append("'d1 << (shift - 1)) - 1)) != 0;\n")
                .append("    end\n")
                .toString();
    }

    /** A floating source: its sign, class, significand (the hidden bit where normal) and exponent. */
    private static String floatDecode(FormatCodec src, int wi, int sm) {
        return "    sign = in[" + (wi - 1) + "];\n"
                + "    nan = " + NanMap.test(src) + ";\n"
                + (src.hasInfinity() ? "    inf = in[" + (wi - 2) + ":0] == " + ReferenceModel.hex(wi - 1, src.format().inf()) + ";\n"
                        : "    inf = 1'b0;\n")
                + "    sig = {2'b0, in[" + (wi - 2) + ":SM] != 0, in[SM - 1:0]};\n"
                + "    e = (in[" + (wi - 2) + ":SM] == 0 ? 1 : {" + (32 - (wi - 1 - sm)) + "'b0, in[" + (wi - 2) + ":SM]}) - SB;\n";
    }

    /** An integer source: its sign and magnitude (2^(W-1), the most negative's, fits W bits unsigned), exponent SM. */
    private static String integerDecode(Format in) {
        int w = in.width();
        return "    sign = " + (in.isSigned() ? "in[" + (w - 1) + "]" : "1'b0") + ";\n"
                + "    nan = 1'b0;\n"
                + "    inf = 1'b0;\n"
                + "    sig = {2'b0, sign ? -in : in};\n"
                + "    e = SM;\n";
    }

    /** The case's rounding increment from the sign, the last kept bit, the half bit and the sticky bit. */
    private static String increment(Rounding mode) {
        return switch (mode) {
            case RN -> "half && (sticky || kept[0])";
            case RNA -> "half";
            case RZ -> "1'b0";
            case RU -> "!sign && (half || sticky)";
            case RD -> "sign && (half || sticky)";
            case RO -> "(half || sticky) && !kept[0]";
            default -> throw new IllegalArgumentException(mode.suffix());
        };
    }

    /** The reference's result for one input, as a constant. */
    private static String result(Converter converter, int wo, long input) {
        return ReferenceModel.hex(wo, converter.apply(input));
    }
}
