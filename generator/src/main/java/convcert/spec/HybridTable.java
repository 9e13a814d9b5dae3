package convcert.spec;

import java.util.LinkedHashMap;
import java.util.Map;

/** hybrid-rounding.csv: CAST_HYBRID's threshold per source format. */
final class HybridTable {

    private HybridTable() {
    }

    static Map<String, HybridRule> load(CsvTable table, FormatTable formats) {
        Map<String, HybridRule> hybridRules = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            Format source = formats.format(row, "source");
            int bits = row.integer("compare_bits");
            if (bits < 1 || bits > 62) {
                throw row.error("compare_bits", "expected 1..62, got " + bits);
            }
            String threshold = row.required("threshold");
            if (!threshold.equals("low-bits") && !threshold.equals("lsb-then-one")) {
                throw row.error("threshold", "expected low-bits or lsb-then-one, got '" + threshold + "'");
            }
            if (threshold.equals("lsb-then-one") && bits != 2) {
                throw row.error("compare_bits", "lsb-then-one is a 2-bit threshold");
            }
            if (hybridRules.put(source.name(), new HybridRule(source.name(), bits, threshold, row.location())) != null) {
                throw row.error("source", "duplicate source " + source.name());
            }
        }
        return hybridRules;
    }
}
