package convcert.vectors;

import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.NaNs;
import convcert.reference.Operands;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.reference.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * What a value case's manifest entry tells a test bench besides its files: the element widths, the rule that
 * tells the results' NaNs, and the case in words. The words about NaNs, infinities and the largest values are
 * the reference's own results for those inputs, so they cannot disagree with the expected values.
 */
final class CaseWords {

    private CaseWords() {
    }

    static Manifest.Elements elements(Converter converter) {
        return new Manifest.Elements(element(converter.source()), element(converter.destination()));
    }

    private static Manifest.Element element(FormatCodec codec) {
        NaNs.Rule rule = NaNs.rule(codec);
        var f = codec.format();
        return new Manifest.Element(f.name(), f.width(), f.bytes(), rule == null ? null
                : new Manifest.NanRule(f.hex(rule.mask()), f.hex(rule.equals()), f.hex(rule.nonzero())));
    }

    static Manifest.Words words(Reference reference, Converter converter) {
        FormatCodec src = converter.source();
        FormatCodec dst = converter.destination();
        var mode = converter.spec().rounding();
        String rounding = mode.suffix() + ": " + reference.tables().roundingDefinition(mode).replaceAll("\\s+", " ");
        String nan = null;
        String infinity = null;
        if (src.hasNan()) {
            long quiet = src.format().nan();
            nan = src.signBit() == 0 ? gives(converter, "NaN", quiet)
                    : gives(converter, "NaN", quiet) + ", " + gives(converter, "NaN", quiet | src.signBit());
        }
        if (src.hasInfinity()) {
            List<String> both = new ArrayList<>(List.of(gives(converter, "+inf", src.infinity(false))));
            if (src.hasInfinity(true)) {
                both.add(gives(converter, "-inf", src.infinity(true)));
            }
            infinity = String.join(", ", both);
        }
        String largest = src.isInteger()
                ? gives(converter, "the largest " + src.format().name(), src.integerMax())
                + (src.format().isSigned() ? ", " + gives(converter, "the smallest", src.integerMin()) : "")
                : gives(converter, "the largest finite " + src.format().name(), src.largestFinite(false))
                + (src.signBit() != 0 ? ", " + gives(converter, "its negative", src.largestFinite(true)) : "");
        NaNs.Rule rule = NaNs.rule(dst);
        boolean anyNaN = reference.semantics().get(Semantics.NAN_COMPARISON) == Semantics.NanComparison.ANY;
        var f = dst.format();
        String compare = anyNaN && rule != null
                ? "where the expected value is a NaN, any NaN of " + f.name() + " matches: r is a NaN iff (r & " + f.hex(rule.mask())
                + ") == " + f.hex(rule.equals()) + (rule.nonzero() == 0 ? "" : " and (r & " + f.hex(rule.nonzero()) + ") != 0")
                + "; every other result bit for bit (decision nan-comparison=any)"
                : "bit for bit" + (rule != null ? ", NaNs included (decision nan-comparison=exact)" : "");
        return new Manifest.Words(rounding + lane(converter.operands()), nan, infinity, largest, compare);
    }

    /** "+inf 0x7F800000 gives 0x7BFF (65504.0)": the reference's result for one input, its lane 0. */
    private static String gives(Converter converter, String what, long bits) {
        Operands operands = converter.operands();
        long lane = operands.scale() != null ? operands.scale().code(0) : 0;
        long result = converter.apply(operands.operand(bits, lane));
        return what + " " + converter.source().format().hex(bits) + " gives " + Values.describe(converter.destination(), result);
    }

    private static String lane(Operands operands) {
        return operands.scale() != null ? " (the results below with scale 0)"
                : operands.randomBits() > 0 ? " (the results below with random bits 0)" : "";
    }
}
