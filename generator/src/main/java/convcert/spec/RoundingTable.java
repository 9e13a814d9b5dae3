package convcert.spec;

import java.util.LinkedHashMap;
import java.util.Map;

/** rounding.csv: the profile's rounding modes, each with the document's name for it. */
final class RoundingTable {

    private RoundingTable() {
    }

    static Map<Rounding, String> load(CsvTable table) {
        Map<Rounding, String> castNames = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            Rounding mode = parse(row, "suffix");
            String cast = row.required("mode");
            if (castNames.put(mode, cast) != null) {
                throw row.error("suffix", "duplicate rounding suffix '" + mode.suffix() + "'");
            }
        }
        return castNames;
    }

    /** Each mode's definition column: what the text says the mode does, in words. */
    static Map<Rounding, String> definitions(CsvTable table) {
        Map<Rounding, String> definitions = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            definitions.put(parse(row, "suffix"), row.text("definition"));
        }
        return definitions;
    }

    /** The rounding mode a row names in column. */
    static Rounding parse(CsvTable.Row row, String column) {
        Rounding mode = Rounding.parse(row.required(column));
        if (mode == null) {
            throw row.error(column, "unknown rounding mode '" + row.text(column) + "' (known: " + Rounding.known() + ")");
        }
        return mode;
    }
}
