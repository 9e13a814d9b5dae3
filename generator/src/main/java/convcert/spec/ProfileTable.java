package convcert.spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * profile.csv: every table the profile has, core or of an extension; the required core tables are
 * declared, every declared table exists, and no other table lies in the folder unread.
 */
final class ProfileTable {

    private ProfileTable() {
    }

    /** Declared tables: file -> part ("core" or an extension's name), in profile.csv order. */
    static Map<String, String> load(CsvTable table, Path directory) {
        Map<String, String> declared = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String file = row.required("file");
            String part = row.required("part");
            List<String> known = part.equals("core") ? SpecTables.FILES : SpecTables.EXTENSIONS.get(part);
            if (known == null) {
                throw row.error("part", "unknown part '" + part + "' (core, " + String.join(", ", SpecTables.EXTENSIONS.keySet()) + ")");
            }
            if (!known.contains(file)) {
                throw row.error("file", "'" + file + "' is not a table of part " + part + " (" + String.join(" ", known) + ")");
            }
            if (declared.putIfAbsent(file, part) != null) {
                throw row.error("file", file + " is declared twice");
            }
            if (!Files.isRegularFile(directory.resolve(file))) {
                throw row.error("file", file + " is declared but missing from " + directory);
            }
        }
        for (String file : SpecTables.FILES) {
            if (!SpecTables.OPTIONAL_FILES.contains(file) && !declared.containsKey(file)) {
                throw new TableException(new Location(directory.resolve(SpecTables.PROFILE_FILE), 0, 0), "the core table " + file
                        + " is not declared (a row 'file,part,description' with part core)");
            }
        }
        for (Map.Entry<String, List<String>> extension : SpecTables.EXTENSIONS.entrySet()) {
            long count = extension.getValue().stream().filter(declared::containsKey).count();
            if (count > 0 && count < extension.getValue().size()) {
                throw new TableException(new Location(directory.resolve(SpecTables.PROFILE_FILE), 0, 0), "extension "
                        + extension.getKey() + " needs all of " + extension.getValue() + "; declared: "
                        + extension.getValue().stream().filter(declared::containsKey).toList());
            }
        }
        try (var files = Files.list(directory)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".csv") && !name.equals(SpecTables.PROFILE_FILE) && !declared.containsKey(name)) {
                    throw new TableException(new Location(f, 0, 0), "not declared in " + SpecTables.PROFILE_FILE
                            + ": a table the profile would not read");
                }
            }
        } catch (IOException e) {
            throw new TableException(new Location(directory, 0, 0), "unreadable: " + e.getMessage());
        }
        return declared;
    }
}
