package convcert.spec;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** decisions.csv: each unclear point, its readings and the default (the reference's switches: Semantics). */
final class DecisionTable {

    private DecisionTable() {
    }

    static Map<String, Decision> load(CsvTable table) {
        Map<String, Decision> decisions = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String id = row.required("id");
            List<String> options = row.words("options");
            if (options.isEmpty()) {
                throw row.error("options", "at least one option required");
            }
            if (new LinkedHashSet<>(options).size() != options.size()) {
                throw row.error("options", "duplicate option");
            }
            String def = row.required("default");
            if (!options.contains(def)) {
                throw row.error("default", "'" + def + "' is not one of the options " + options);
            }
            Decision d = new Decision(id, row.required("question"), options, def, row.required("reason"),
                    row.required("source"), row.location());
            if (decisions.putIfAbsent(id, d) != null) {
                throw row.error("id", "duplicate decision '" + id + "'");
            }
        }
        return decisions;
    }
}
