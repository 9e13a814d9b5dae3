package convcert.spec;

import java.util.Collection;
import java.util.Map;
import java.util.LinkedHashMap;

/** ctrl.csv: the control-register bits conversions consult, with their power-on values. */
final class CtrlTable {

    private CtrlTable() {
    }

    static Map<Integer, CtrlBit> load(CsvTable table, Collection<Format> formats) {
        Map<Integer, CtrlBit> ctrlBits = new LinkedHashMap<>(); // file order: the order states are tried in
        for (CsvTable.Row row : table.rows()) {
            int bit = row.integer("bit");
            if (bit < 0 || bit > 63) {
                throw row.error("bit", "CTRL bits are 0..63");
            }
            int powerOn = bitValue(row, "power_on");
            CtrlBit ctrl = new CtrlBit(bit, row.required("name"), powerOn, bitValue(row, "tried_first"),
                    row.text("applies_to"), row.text("meaning"), row.location());
            if (ctrlBits.put(bit, ctrl) != null) {
                throw row.error("bit", "duplicate CTRL bit " + bit);
            }
        }
        for (Format f : formats) {
            if (f.satNanBit() != null && !ctrlBits.containsKey(f.satNanBit())) {
                throw new TableException(new Location(table.file(), 0, 0), "no row for CTRL[" + f.satNanBit()
                        + "], which sat_nan=" + f.satNan() + " of " + f.name() + " consults");
            }
        }
        return ctrlBits;
    }

    /** A 0/1 cell. */
    static int bitValue(CsvTable.Row row, String column) {
        String text = row.required(column);
        return switch (text) {
            case "0" -> 0;
            case "1" -> 1;
            default -> throw row.error(column, "expected 0 or 1" + (column.startsWith("ctrl") ? " or *" : "")
                    + ", got '" + text + "'");
        };
    }
}
