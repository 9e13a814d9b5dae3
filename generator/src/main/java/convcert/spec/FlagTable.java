package convcert.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * flags.csv: the exception flags a profile's hardware raises, each by its SoftFloat name (inexact,
 * underflow, overflow, infinite, invalid; the bits are SoftFloat's) with the hardware's own name for it
 * (RISC-V NX, UF, OF, DZ, NV). A profile with this table has a flags lane on every conversion.
 */
final class FlagTable {

    /** SoftFloat's flags, bit 0 first. */
    static final List<String> KNOWN = List.of("inexact", "underflow", "overflow", "infinite", "invalid");

    private FlagTable() {
    }

    /** flag -> the hardware's name, in SoftFloat's bit order. */
    static Map<String, String> load(CsvTable table) {
        Map<String, String> names = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String flag = row.required("flag");
            if (!KNOWN.contains(flag)) {
                throw row.error("flag", "unknown flag '" + flag + "' (known: " + String.join(" ", KNOWN) + ")");
            }
            if (names.putIfAbsent(flag, row.required("name")) != null) {
                throw row.error("flag", "duplicate flag " + flag);
            }
            row.required("source");
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        KNOWN.stream().filter(names::containsKey).forEach(f -> ordered.put(f, names.get(f)));
        return ordered;
    }
}
