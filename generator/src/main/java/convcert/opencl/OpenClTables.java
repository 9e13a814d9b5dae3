package convcert.opencl;

import convcert.spec.CsvTable;
import convcert.spec.Location;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory and reinterpretation tables of spec-tables/opencl: types.csv, vector-widths.csv,
 * vector-functions.csv, as-type-rules.csv and as-type-examples.csv.
 */
public final class OpenClTables {

    public record Function(String name, List<String> valueTypes, String memoryType, List<Integer> widths,
                           boolean store, boolean strideByStorage, boolean vectorAlignment, List<String> roundings) {
    }

    public record AsTypeExample(String id, String from, String to, String operand, String outcome, String result,
                                String documentSays) {
    }

    private final Path directory;
    private final OpenClTypes types;
    private final Map<Integer, Integer> storage = new LinkedHashMap<>();
    private final List<Function> functions = new ArrayList<>();
    private final Map<String, String> asTypeOutcomes = new LinkedHashMap<>();
    private final List<AsTypeExample> examples = new ArrayList<>();

    private OpenClTables(Path directory) {
        this.directory = directory;
        this.types = new OpenClTypes(directory.resolve("types.csv"));
        for (CsvTable.Row row : CsvTable.read(directory.resolve("vector-widths.csv"), List.of("n", "storage_elements"))
                .rows()) {
            storage.put(row.integer("n"), row.integer("storage_elements"));
        }
        for (CsvTable.Row row : CsvTable.read(directory.resolve("vector-functions.csv"), List.of("function", "value_types",
                "memory_type", "widths", "direction", "address", "alignment", "roundings")).rows()) {
            List<Integer> widths = row.words("widths").stream().map(Integer::parseInt).toList();
            for (int w : widths) {
                if (!storage.containsKey(w)) {
                    throw row.error("widths", "width " + w + " is not in vector-widths.csv");
                }
            }
            String address = row.required("address");
            if (!address.equals("p + offset * n") && !address.equals("p + offset * storage")) {
                throw row.error("address", "expected 'p + offset * n' or 'p + offset * storage'");
            }
            String alignment = row.required("alignment");
            if (!alignment.equals("element") && !alignment.equals("vector")) {
                throw row.error("alignment", "expected element or vector");
            }
            String direction = row.required("direction");
            if (!direction.equals("load") && !direction.equals("store")) {
                throw row.error("direction", "expected load or store");
            }
            List<String> roundings = row.words("roundings").stream().map(r -> r.equals("default") ? "" : r).toList();
            functions.add(new Function(row.required("function"), row.words("value_types"), row.required("memory_type"),
                    widths, direction.equals("store"), address.endsWith("storage"), alignment.equals("vector"),
                    roundings.isEmpty() ? List.of("") : roundings));
        }
        for (CsvTable.Row row : CsvTable.read(directory.resolve("as-type-rules.csv"), List.of("id", "outcome")).rows()) {
            asTypeOutcomes.put(row.required("id"), row.required("outcome"));
        }
        for (String id : List.of("size-differs", "same-count", "four-to-three", "other-count")) {
            if (!asTypeOutcomes.containsKey(id)) {
                throw new TableException(new Location(directory.resolve("as-type-rules.csv"), 0, 0),
                        "no rule " + id);
            }
        }
        for (CsvTable.Row row : CsvTable.read(directory.resolve("as-type-examples.csv"), List.of("id", "from", "to",
                "operand", "outcome", "result", "document_says")).rows()) {
            examples.add(new AsTypeExample(row.required("id"), row.required("from"), row.required("to"),
                    row.required("operand"), row.required("outcome"), row.text("result"), row.required("document_says")));
        }
    }

    public static OpenClTables load(Path directory) {
        return new OpenClTables(directory);
    }

    /** The extension's part name in profile.csv. */
    public static final String PART = "opencl-memory";

    /** The memory tables of a profile, validated, or null when its profile.csv does not declare them. */
    public static OpenClTables attachedTo(SpecTables profile) {
        return profile.hasExtension(PART) ? load(profile.directory()) : null;
    }

    public Path directory() {
        return directory;
    }

    public OpenClTypes types() {
        return types;
    }

    public int storage(int n) {
        return storage.get(n);
    }

    public List<Integer> widths() {
        return List.copyOf(storage.keySet());
    }

    public List<Function> functions() {
        return functions;
    }

    public Function function(String name) {
        return functions.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }

    /** The outcome of as-type-rules.csv for a rule id. */
    public String asTypeOutcome(String rule) {
        return asTypeOutcomes.get(rule);
    }

    public List<AsTypeExample> examples() {
        return examples;
    }
}
