package convcert.spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** examples.csv: the documents' worked examples, each a case the profile offers. */
final class ExampleTable {

    private ExampleTable() {
    }

    static Map<String, Example> load(CsvTable table, FormatTable formats, Map<String, Conversion> conversions,
                                     Map<Integer, CtrlBit> ctrlBits) {
        Map<String, Example> examples = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String id = row.required("id");
            Format from = formats.format(row, "from");
            Format to = formats.format(row, "to");
            Conversion c = conversions.get(ConversionTable.key(from, to));
            if (c == null) {
                throw row.error("to", "pair " + from.name() + "->" + to.name() + " is not in conversions.csv");
            }
            Rounding mode = RoundingTable.parse(row, "rounding");
            Form form = Form.parse(row.required("form"));
            if (form == null) {
                throw row.error("form", "expected nosat, sat or implicit, got '" + row.text("form") + "'");
            }
            if (form == Form.IMPLICIT ? c.implicitRounding() != mode : !c.modes().contains(mode) || !c.forms(mode).contains(form)) {
                throw row.error("rounding", "pair " + c.pairName() + " does not offer " + mode.suffix() + " "
                        + form.tableName() + " (" + c.location() + ")");
            }
            Map<Integer, Integer> ctrl = new TreeMap<>();
            for (String setting : row.words("ctrl")) {
                String[] parts = setting.split("=", 2);
                try {
                    int bit = Integer.parseInt(parts[0]);
                    int value = Integer.parseInt(parts.length == 2 ? parts[1] : "");
                    if (!ctrlBits.containsKey(bit) || (value != 0 && value != 1)) {
                        throw new NumberFormatException();
                    }
                    ctrl.put(bit, value);
                } catch (NumberFormatException e) {
                    throw row.error("ctrl", "bad setting '" + setting + "': expected BIT=0|1 with BIT in " + ctrlBits.keySet());
                }
            }
            long input = row.hex("input");
            long expected = row.hex("expected");
            if ((input & ~from.mask()) != 0) {
                throw row.error("input", "does not fit in " + from.name());
            }
            if ((expected & ~to.mask()) != 0) {
                throw row.error("expected", "does not fit in " + to.name());
            }
            input |= scale(table, row, c) << from.width() | random(table, row, c, mode)
                    << from.width() + (c.scale() == null ? 0 : c.scale().bits());
            boolean erratum = switch (row.required("status")) {
                case "ok" -> false;
                case "erratum" -> true;
                default -> throw row.error("status", "expected ok or erratum, got '" + row.text("status") + "'");
            };
            if (erratum && row.text("note").isEmpty()) {
                throw row.error("note", "an erratum row names the decision that corrects it");
            }
            Example e = new Example(id, row.required("table"), c, input, mode, form, ctrl, expected, erratum,
                    row.required("document_says"), row.text("note"), row.location());
            if (examples.putIfAbsent(id, e) != null) {
                throw row.error("id", "duplicate example '" + id + "'");
            }
        }
        return examples;
    }

    /**
     * A scaled pair's example gives its scale, an integer, in the optional scale column: it becomes the
     * lane above the input (the operand the reference converts).
     */
    private static long scale(CsvTable table, CsvTable.Row row, Conversion c) {
        String text = table.columnNames().contains(SCALE) ? row.text(SCALE) : "";
        ScaleLane lane = c.scale();
        if (lane == null || text.isEmpty()) {
            if (lane != null || !text.isEmpty()) {
                throw row.error(table.columnNames().contains(SCALE) ? SCALE : "input", lane != null
                        ? c.pairName() + " is scaled: its example needs a scale column" : c.pairName() + " takes no scale");
            }
            return 0;
        }
        int k = row.integer(SCALE);
        if (k < lane.min() || k > lane.max()) {
            throw row.error(SCALE, k + " is outside the " + lane + " scale's " + lane.min() + " to " + lane.max());
        }
        return lane.code(k);
    }

    /**
     * A stochastic example (rs) gives its random bits in hex in the optional random column: they sit above
     * the input and its scale, as the case's operand holds them.
     */
    private static long random(CsvTable table, CsvTable.Row row, Conversion c, Rounding mode) {
        String text = table.columnNames().contains(RANDOM) ? row.text(RANDOM) : "";
        boolean stochastic = mode.stochastic() && c.randomBits() > 0;
        if (!stochastic || text.isEmpty()) {
            if (stochastic || !text.isEmpty()) {
                throw row.error(table.columnNames().contains(RANDOM) ? RANDOM : "rounding", stochastic
                        ? "rs takes random bits: the example needs a random column" : "random bits need rounding rs");
            }
            return 0;
        }
        long bits = row.hex(RANDOM);
        if (bits >>> c.randomBits() != 0) {
            throw row.error(RANDOM, "does not fit in the " + c.randomBits() + " random bits of " + c.pairName());
        }
        return bits;
    }

    /** Optional columns: a scaled pair's scale, a stochastic example's random bits. */
    static final String SCALE = "scale";
    static final String RANDOM = "random";
}
