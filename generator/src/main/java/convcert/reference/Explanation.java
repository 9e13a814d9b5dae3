package convcert.reference;

import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a conversion produced its result: the decoded input, its exact value, the two grid neighbours
 * it lay between, the result, and the table rows that decided.
 */
public record Explanation(String input, String decoded, String exact, String lower, String upper, String between,
                          String result, List<String> rules) {

    static Explanation of(Converter c, long input, long result, Trace t) {
        FormatCodec src = c.source();
        FormatCodec dst = c.destination();
        Decoded d = t.decoded;
        String exact = switch (d.kind()) {
            case FINITE -> Values.text(Values.exact(d.negative(), d.significand(), d.exponent()))
                    + " = " + (d.negative() ? "-" : "+") + Long.toUnsignedString(d.significand()) + " * 2^" + d.exponent();
            case ZERO -> d.negative() ? "-0" : "+0";
            case INFINITE -> d.negative() ? "-inf" : "+inf";
            case NAN -> "NaN (payload bits 0x" + Long.toHexString(d.payload()) + ", left-aligned)";
        };
        String lower = "-";
        String upper = "-";
        String between = null;
        if (t.quantum != null) {
            if (!t.inexact) {
                lower = "exact on the grid (quantum 2^" + t.quantum + ")";
                upper = lower;
            } else {
                lower = candidate(dst, d.negative(), t.kept, t.quantum);
                upper = candidate(dst, d.negative(), t.kept + 1, t.quantum);
                between = between(c.spec().rounding(), t.guard, t.kept);
            }
        }
        List<String> rules = new ArrayList<>();
        Case spec = c.spec();
        rules.add("conversion " + spec.conversion().pairName() + ", group " + spec.conversion().group()
                + " (" + spec.conversion().location() + ")");
        rules.add("rounding " + spec.rounding().suffix() + " (" + c.spec().conversion().api() + ")");
        rules.add("saturation: " + spec.rule().describe() + " (" + spec.rule().location() + ")");
        rules.addAll(t.notes);
        for (Semantics.Switch<?> decision : Semantics.switches()) {
            String id = decision.id();
            java.util.regex.Pattern named = java.util.regex.Pattern.compile("(?<![\\w-])" + java.util.regex.Pattern.quote(id)
                    + "(?![\\w-])");
            if (t.notes.stream().anyMatch(n -> named.matcher(n).find())) {
                rules.add("decision " + id + "=" + c.semantics().choices().get(id) + " (decisions.csv)");
            }
        }
        return new Explanation(src.format().hex(input) + " " + src.format().name(),
                Values.fields(src, input) + " = " + Values.decimal(src, input), exact, lower, upper, between,
                Values.describe(dst, result) + " " + dst.format().name(), List.copyOf(rules));
    }

    /** Where the exact value lies between the neighbours (by magnitude), and at a tie the rule that breaks it. */
    private static String between(Rounding mode, int guard, long kept) {
        if (guard != Rounder.HALF) {
            return (guard & Rounder.HALF) != 0 ? "above halfway: nearer upper" : "below halfway: nearer lower";
        }
        return "exactly halfway (a tie): " + switch (mode) {
            case RN -> "rn breaks it to the even neighbour, " + ((kept & 1) == 0 ? "lower" : "upper");
            case RNA -> "rna breaks it away from zero, upper";
            case RH -> "rh rounds by its binade's rule (tapered.csv)";
            case RS, RSA, RSB, RSC -> mode.suffix() + " rounds by its random bits";
            case RD, RU, RZ, RO -> mode.suffix() + " does not round to nearest: its direction decides";
        };
    }

    private static String candidate(FormatCodec dst, boolean negative, long kept, int quantum) {
        String value = Values.text(Values.exact(negative, kept, quantum));
        if (dst.isInteger()) {
            return value;
        }
        if (kept == 0) {
            return "0 (" + dst.format().hex(dst.zero(negative)) + ")";
        }
        int e = quantum + 63 - Long.numberOfLeadingZeros(kept);
        if (e > dst.maxExponent() || (e == dst.maxExponent() && kept > dst.maxKept())) {
            return value + " (beyond the largest finite value)";
        }
        return value + " (" + dst.format().hex(dst.encode(negative, kept, quantum)) + ")";
    }

    /** Multi-line text for --explain. */
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("input    ").append(input).append('\n');
        b.append("decoded  ").append(decoded).append('\n');
        b.append("exact    ").append(exact).append('\n');
        b.append("lower    ").append(lower).append('\n');
        b.append("upper    ").append(upper).append('\n');
        if (between != null) {
            b.append("between  ").append(between).append('\n');
        }
        b.append("result   ").append(result).append('\n');
        for (String rule : rules) {
            b.append("rule     ").append(rule).append('\n');
        }
        return b.toString();
    }
}
