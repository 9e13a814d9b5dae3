package convcert.opencl;

import convcert.spec.CsvTable;
import convcert.spec.Format;
import convcert.spec.Location;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** spec-tables/opencl/types.csv: OpenCL C scalar types, the formats they hold, and the extension each needs. */
public final class OpenClTypes {

    public record Type(String opencl, String format, int bytes, String extension, boolean gentype) {
    }

    private final Map<String, Type> byOpenCl = new LinkedHashMap<>();
    private final Map<String, Type> byFormat = new LinkedHashMap<>();
    private final Map<String, Location> rows = new LinkedHashMap<>();

    public OpenClTypes(Path file) {
        for (CsvTable.Row row : CsvTable.read(file, List.of("opencl", "format", "bytes", "extension", "gentype")).rows()) {
            String gentype = row.required("gentype");
            if (!gentype.equals("yes") && !gentype.equals("extension")) {
                throw row.error("gentype", "expected yes or extension");
            }
            Type t = new Type(row.required("opencl"), row.required("format"), row.integer("bytes"), row.text("extension"),
                    gentype.equals("yes"));
            if (byOpenCl.put(t.opencl(), t) != null || byFormat.put(t.format(), t) != null) {
                throw row.error("opencl", "duplicate type");
            }
            rows.put(t.opencl(), row.location());
        }
    }

    /** types.csv of a profile folder. */
    public static OpenClTypes load(Path profileDirectory) {
        return new OpenClTypes(profileDirectory.resolve("types.csv"));
    }

    /** Every type names a format of the profile, with that format's storage size. */
    public void check(SpecTables tables) {
        for (Type t : byOpenCl.values()) {
            Format f = tables.findFormat(t.format());
            if (f == null) {
                throw new TableException(rows.get(t.opencl()).atColumn(2), "format: '" + t.format()
                        + "' is not a format of formats.csv");
            }
            if (f.bytes() != t.bytes()) {
                throw new TableException(rows.get(t.opencl()).atColumn(3), "bytes: " + t.bytes() + ", but "
                        + f.name() + " takes " + f.bytes());
            }
        }
    }

    public Type ofFormat(String format) {
        return byFormat.get(format);
    }

    public Type ofOpenCl(String name) {
        return byOpenCl.get(name);
    }

    public List<Type> all() {
        return List.copyOf(byOpenCl.values());
    }
}
