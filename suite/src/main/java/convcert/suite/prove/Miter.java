package convcert.suite.prove;

import convcert.common.UsageException;
import convcert.reference.Converter;
import convcert.reference.NaNs;
import java.util.List;
import java.util.Map;

/**
 * The miter of a design and a case's reference model: the same input to both, `bad` high when their results
 * differ as certification judges them (bit for bit; under nan-comparison=any, any NaN for a NaN).
 *
 * @param top       the design's module
 * @param input     its input port, driven with the source's bits
 * @param output    its output port, whose low bits (the destination's width) are the result
 * @param constants the design's other input ports and their values (a case's mode, form, CTRL bits)
 * @param parameters the design's parameters to set, and their values
 */
public record Miter(String top, String input, String output, Map<String, Long> constants, Map<String, Long> parameters) {

    static final String MODULE = "convcert_miter";
    static final String MODEL = "convcert_model";

    public Miter {
        for (String port : concat(concat(List.of(top, input, output), constants.keySet()), parameters.keySet())) {
            if (!port.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
                throw new UsageException("'" + port + "' is not a Verilog identifier (a module or port name)");
            }
        }
    }

    private static List<String> concat(List<String> a, java.util.Collection<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    /** The miter module, for a case whose model is module MODEL; bad stays low on the excluded inputs. */
    String systemVerilog(Converter converter, boolean anyNaN, List<Long> excluded) {
        int wi = converter.source().format().width();
        int wo = converter.destination().format().width();
        StringBuilder v = new StringBuilder("// The miter convcert prove checks: the design and the reference model on one input.\n")
                .append("module ").append(MODULE).append(" (input logic [").append(wi - 1).append(":0] in, output logic bad);\n")
                .append("  logic [63:0] design_port;\n")
                .append("  logic [").append(wo - 1).append(":0] design_out, model_out;\n")
                .append("  ").append(top).append(parameters.isEmpty() ? "" : " #(" + String.join(", ", parameters.entrySet().stream()
                        .map(p -> "." + p.getKey() + "(" + Long.toUnsignedString(p.getValue()) + ")").toList()) + ")")
                .append(" design (.").append(input).append("(in), .").append(output).append("(design_port)");
        constants.forEach((port, value) -> v.append(", .").append(port).append("(64'd").append(Long.toUnsignedString(value)).append(")"));
        v.append(");\n")
                .append("  ").append(MODEL).append(" model (.in(in), .out(model_out));\n")
                .append("  assign design_out = design_port[").append(wo - 1).append(":0];\n");
        NaNs.Rule rule = NaNs.rule(converter.destination());
        String same = "design_out == model_out";
        if (anyNaN && rule != null) {
            String d = isNaN("design_out", rule, wo);
            String m = isNaN("model_out", rule, wo);
            same = same + " || (" + d + " && " + m + ")";
        }
        v.append("  assign bad = !(").append(same).append(")");
        excluded.forEach(x -> v.append("\n      && in != ").append(wi).append("'h").append(Long.toHexString(x)));
        return v.append(";\n").append("endmodule\n").toString();
    }

    private static String isNaN(String signal, NaNs.Rule rule, int width) {
        String hex = width + "'h";
        return "((" + signal + " & " + hex + Long.toHexString(rule.mask()) + ") == " + hex + Long.toHexString(rule.equals())
                + (rule.nonzero() == 0 ? "" : " && (" + signal + " & " + hex + Long.toHexString(rule.nonzero()) + ") != 0") + ")";
    }
}
