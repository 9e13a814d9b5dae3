package convcert.spec;

import convcert.spi.CtrlState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * conversions.csv: the pairs a profile offers, their modes and forms. Every mode has its rounding.csv
 * row, rh only into tapered formats with a hybrid rule, and no group's rule gives a meaningless
 * saturation for the destination (nosat into an integer, wrap into a floating format).
 */
final class ConversionTable {

    /** Optional column: what a NaN gives an integer destination where the pair differs from from_nan. */
    static final String NAN_RESULT = "nan_result";

    /** Optional column: the random bits per value of the pair's stochastic rounding (rs). */
    static final String RANDOM_BITS = "random_bits";

    /** Optional column: the forms rs offers where fewer than the pair's. */
    static final String RS_FORMS = "rs_forms";

    /** Optional column: the scale operand of a scaled conversion (ScaleLane's syntax). */
    static final String SCALE = "scale";

    /** Optional column: what a format to itself is, integral (the default: round to an integral value) or identity. */
    static final String SAME_TYPE = "same_type";

    private ConversionTable() {
    }

    private record RowPair(CsvTable.Row row, Format from, Format to) {
    }

    static Map<String, Conversion> load(CsvTable table, FormatTable formats, Map<String, String> groups,
                                        Map<String, HybridRule> hybridRules, List<SaturationRule> rules,
                                        Collection<Integer> ctrlBits, Set<Rounding> named) {
        Map<String, Conversion> conversions = new LinkedHashMap<>();
        List<RowPair> pairs = new ArrayList<>();
        for (CsvTable.Row row : table.rows()) { // a row naming a family stands for a pair per format of it
            for (Format from : formats.formatsOf(row, "from")) {
                for (Format to : formats.formatsOf(row, "to")) {
                    pairs.add(new RowPair(row, from, to));
                }
            }
        }
        for (RowPair pair : pairs) {
            Conversion c = conversion(table, pair, groups, hybridRules);
            if (conversions.putIfAbsent(key(pair.from(), pair.to()), c) != null) {
                throw pair.row().error("to", "duplicate pair " + c.pairName());
            }
            checkSaturation(pair.row(), c, rules, ctrlBits);
        }
        checkModesNamed(conversions.values(), named);
        return conversions;
    }

    /** One pair of a row, its columns checked. */
    private static Conversion conversion(CsvTable table, RowPair pair, Map<String, String> groups,
                                         Map<String, HybridRule> hybridRules) {
        CsvTable.Row row = pair.row();
        Format from = pair.from();
        Format to = pair.to();
        Set<Rounding> modes = modes(row);
        Set<Form> forms = forms(row);
        String group = row.required("group");
        if (!groups.containsKey(group)) {
            throw row.error("group", "unknown group '" + group + "' (saturation-groups.csv has " + groups.keySet() + ")");
        }
        Rounding implicit = row.text("implicit").isEmpty() ? null : RoundingTable.parse(row, "implicit");
        if (modes.contains(Rounding.RH)) {
            if (to.layout() != Layout.TAPERED) {
                throw row.error("modes", "rh (hybrid) is defined only for tapered destinations");
            }
            if (!hybridRules.containsKey(from.name())) {
                throw row.error("modes", "rh needs a hybrid-rounding.csv row for " + from.name());
            }
        }
        Long nanResult = table.columnNames().contains(NAN_RESULT) ? row.optionalHex(NAN_RESULT) : null;
        if (nanResult != null && (!to.isInteger() || (to.width() < 64 && nanResult >>> to.width() != 0))) {
            throw row.error(NAN_RESULT, to.isInteger() ? "does not fit in " + to.width() + " bits"
                    : "only for integer destinations (a floating one has formats.csv nan and sat_nan)");
        }
        int randomBits = randomBits(table, row, from, to, modes.stream().anyMatch(Rounding::stochastic));
        Set<Form> rsForms = EnumSet.noneOf(Form.class);
        for (String word : table.columnNames().contains(RS_FORMS) ? row.words(RS_FORMS) : List.<String>of()) {
            Form form = Form.parse(word);
            if (randomBits == 0 || form == null || !forms.contains(form)) {
                throw row.error(RS_FORMS, randomBits == 0 ? "rs forms without rs in modes"
                        : "expected some of the pair's forms (" + row.text("forms") + "), got '" + word + "'");
            }
            rsForms.add(form);
        }
        ScaleLane scale = scale(table, row, from, to, randomBits);
        String sameType = table.columnNames().contains(SAME_TYPE) ? row.text(SAME_TYPE) : "";
        if (!sameType.isEmpty() && (!from.equals(to) || !sameType.equals("integral") && !sameType.equals("identity"))) {
            throw row.error(SAME_TYPE, from.equals(to) ? "expected integral or identity, got '" + sameType + "'"
                    : "only for a format to itself");
        }
        return new Conversion(from, to, Set.copyOf(modes), Set.copyOf(forms), group, implicit,
                row.required("api"), row.required("source"), row.location(), nanResult, randomBits, Set.copyOf(rsForms),
                scale, sameType.equals("identity"));
    }

    private static Set<Rounding> modes(CsvTable.Row row) {
        Set<Rounding> modes = EnumSet.noneOf(Rounding.class);
        for (String word : row.words("modes")) {
            Rounding mode = Rounding.parse(word);
            if (mode == null) {
                throw row.error("modes", "unknown rounding mode '" + word + "' (known: " + Rounding.known() + ")");
            }
            modes.add(mode);
        }
        if (modes.isEmpty()) {
            throw row.error("modes", "at least one rounding mode required");
        }
        return modes;
    }

    private static Set<Form> forms(CsvTable.Row row) {
        Set<Form> forms = EnumSet.noneOf(Form.class);
        for (String word : row.words("forms")) {
            Form form = Form.parse(word);
            if (form == null || form == Form.IMPLICIT) {
                throw row.error("forms", "expected some of " + Form.EXPLICIT.stream().map(Form::tableName)
                        .collect(java.util.stream.Collectors.joining(" ")) + ", got '" + word + "'");
            }
            forms.add(form);
        }
        if (forms.isEmpty()) {
            throw row.error("forms", "at least one form required");
        }
        return forms;
    }

    /** Every form of a pair (its implicit one too) meets a saturation rule at every CTRL setting, meaningful for its destination. */
    private static void checkSaturation(CsvTable.Row row, Conversion c, List<SaturationRule> rules, Collection<Integer> ctrlBits) {
        List<Form> checked = new ArrayList<>(EnumSet.copyOf(c.forms())); // in the enum's order, as the table's errors come
        if (c.implicitRounding() != null) {
            checked.add(Form.IMPLICIT);
        }
        for (Form form : checked) {
            for (CtrlState ctrl : CtrlState.all(ctrlBits)) {
                SaturationRule rule = SaturationTable.find(rules, c.group(), form, ctrl);
                if (rule == null) {
                    throw row.error("forms", "no saturation.csv rule matches group " + c.group() + ", form "
                            + form.tableName() + ", CTRL " + ctrl);
                }
                Saturation effective = rule.effective();
                boolean ok = c.to().isInteger() ? effective != Saturation.NOSAT && effective != Saturation.PROPAGATE
                        : effective != Saturation.WRAP;
                if (!ok) {
                    throw row.error("group", "group " + c.group() + " gives '" + effective.tableName()
                            + "' for " + form.tableName() + " at CTRL " + ctrl + ", meaningless for " + c.to().name());
                }
            }
        }
    }

    /** Every rounding a pair offers (its implicit one too) has its row in rounding.csv. */
    private static void checkModesNamed(Collection<Conversion> conversions, Set<Rounding> named) {
        for (Conversion c : conversions) {
            List<Rounding> used = new ArrayList<>(c.modes());
            if (c.implicitRounding() != null) {
                used.add(c.implicitRounding());
            }
            for (Rounding mode : used) {
                if (!named.contains(mode)) {
                    throw new TableException(c.location(), c.pairName() + " offers " + mode.suffix()
                            + ", which rounding.csv has no row for");
                }
            }
        }
    }

    /**
     * rs needs its random bits (1 to 32) and a floating destination; a value and its random bits travel
     * as one 64-bit operand (the value in the low bits), so they must fit together.
     */
    private static int randomBits(CsvTable table, CsvTable.Row row, Format from, Format to, boolean stochastic) {
        String text = table.columnNames().contains(RANDOM_BITS) ? row.text(RANDOM_BITS) : "";
        if (!stochastic) {
            if (!text.isEmpty()) {
                throw row.error(RANDOM_BITS, "random bits without rs (stochastic rounding) in modes");
            }
            return 0;
        }
        if (text.isEmpty()) {
            throw row.error(table.columnNames().contains(RANDOM_BITS) ? RANDOM_BITS : "modes",
                    "rs (stochastic rounding) needs the random bits per value in a random_bits column");
        }
        int n;
        if (text.equals("precision")) { // P3109's StochasticX(min(P, 16)): P of the source, else of the destination
            Format p3109 = from.layout().p3109() ? from : to.layout().p3109() ? to : null;
            if (p3109 == null) {
                throw row.error(RANDOM_BITS, "'precision' takes the precision of a P3109 format; " + from.name() + " -> "
                        + to.name() + " has none");
            }
            n = Math.min(p3109.mantissaBits() + 1, 16);
        } else {
            n = row.integer(RANDOM_BITS);
        }
        if (n < 1 || n > 32) {
            throw row.error(RANDOM_BITS, "expected 1 to 32 random bits, got " + n);
        }
        if (to.isInteger()) {
            throw row.error("modes", "rs is defined for floating destinations only");
        }
        if (from.width() + n > 64) {
            throw row.error(RANDOM_BITS, from.name() + " (" + from.width() + " bits) and " + n
                    + " random bits do not fit in one 64-bit operand");
        }
        return n;
    }

    /**
     * A scale is for floating pairs, one lane beside the value; with rs's random bits the lane holds both
     * (the scale field low), and must fit the 64-bit operand and the transports' 32-bit lane word.
     */
    private static ScaleLane scale(CsvTable table, CsvTable.Row row, Format from, Format to, int randomBits) {
        String text = table.columnNames().contains(SCALE) ? row.text(SCALE) : "";
        if (text.isEmpty()) {
            return null;
        }
        ScaleLane lane = ScaleLane.parse(text);
        if (lane == null) {
            throw row.error(SCALE,
                    "expected [-]sBITS or [-]uBITS (1 to 16 bits; '-' divides; a trailing n: the lane's end value is NaN), got '" + text
                    + "'");
        }
        if (from.isInteger() || to.isInteger()) {
            throw row.error(SCALE, "a scale is defined between floating formats only");
        }
        if (from.width() + lane.bits() + randomBits > 64) {
            throw row.error(SCALE, from.name() + " and a " + lane.bits() + "-bit scale" + (randomBits > 0 ? " with "
                    + randomBits + " random bits" : "") + " do not fit in one 64-bit operand");
        }
        if (lane.bits() + randomBits > 32) {
            throw row.error(SCALE, "a " + lane.bits() + "-bit scale and " + randomBits
                    + " random bits do not fit in one 32-bit lane word");
        }
        return lane;
    }

    static String key(Format from, Format to) {
        return from.name() + "->" + to.name();
    }
}
