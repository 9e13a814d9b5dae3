package convcert.spec;

import convcert.spi.CtrlState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * saturation-groups.csv and saturation.csv: who decides saturation for each group of pairs, and the
 * effective behaviour per form and setting of the ctrl.csv bits (a ctrlNN column per bit consulted);
 * every (group, form, state) must match a rule.
 */
final class SaturationTable {

    private SaturationTable() {
    }

    static Map<String, String> groups(CsvTable table) {
        Map<String, String> groups = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            if (groups.put(row.required("group"), row.required("description")) != null) {
                throw row.error("group", "duplicate group '" + row.text("group") + "'");
            }
        }
        return groups;
    }

    static List<SaturationRule> load(CsvTable table, Map<String, String> groups, Map<Integer, CtrlBit> ctrlBits) {
        List<SaturationRule> saturationRules = new ArrayList<>();
        List<String> names = table.columnNames();
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).matches("ctrl\\d+") && !ctrlBits.containsKey(Integer.parseInt(names.get(i).substring(4)))) {
                throw new TableException(new Location(table.file(), 1, i + 1), "column " + names.get(i)
                        + ": CTRL[" + names.get(i).substring(4) + "] has no row in ctrl.csv");
            }
        }
        for (CsvTable.Row row : table.rows()) {
            String group = row.required("group");
            if (!groups.containsKey(group)) {
                throw row.error("group", "unknown group '" + group + "' (saturation-groups.csv has " + groups.keySet() + ")");
            }
            String formText = row.required("form");
            Form form = formText.equals("*") ? null : Form.parse(formText);
            if (form == null && !formText.equals("*")) {
                throw row.error("form", "expected " + Form.known() + " or *, got '" + formText + "'");
            }
            Saturation effective = Saturation.parse(row.required("effective"));
            if (effective == null) {
                throw row.error("effective", "expected nosat, sat, wrap or propagate, got '" + row.text("effective") + "'");
            }
            Map<Integer, Integer> pattern = new LinkedHashMap<>();
            for (String column : table.columnNames()) {
                if (column.matches("ctrl\\d+")) {
                    pattern.put(Integer.parseInt(column.substring(4)), ctrlPattern(row, column, ctrlBits));
                }
            }
            saturationRules.add(new SaturationRule(group, pattern, form, effective, row.required("source"),
                    row.location()));
        }
        // Every group covers the C API's forms, and P3109's where a row names one (a profile of either kind).
        java.util.Set<Form> forms = java.util.EnumSet.of(Form.NOSAT, Form.SAT, Form.IMPLICIT);
        saturationRules.stream().map(SaturationRule::form).filter(java.util.Objects::nonNull).forEach(forms::add);
        for (String group : groups.keySet()) {
            for (Form form : forms) {
                for (CtrlState ctrl : CtrlState.all(ctrlBits.keySet())) {
                    if (find(saturationRules, group, form, ctrl) == null) {
                        throw new TableException(new Location(table.file(), 0, 0), "no rule matches group " + group
                                + ", form " + form.tableName() + ", CTRL " + ctrl);
                    }
                }
            }
        }
        return saturationRules;
    }

    /** The first rule matching, or null. */
    static SaturationRule find(List<SaturationRule> rules, String group, Form form, CtrlState ctrl) {
        for (SaturationRule rule : rules) {
            if (rule.matches(group, form, ctrl)) {
                return rule;
            }
        }
        return null;
    }

    private static Integer ctrlPattern(CsvTable.Row row, String column, Map<Integer, CtrlBit> ctrlBits) {
        String text = row.required(column);
        if (text.equals("*")) {
            return null;
        }
        int bit = Integer.parseInt(column.substring(4));
        if (!ctrlBits.containsKey(bit)) {
            throw row.error(column, "CTRL[" + bit + "] has no row in ctrl.csv");
        }
        return CtrlTable.bitValue(row, column);
    }
}
