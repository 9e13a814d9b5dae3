package convcert.cli;

import convcert.common.Home;
import convcert.common.UsageException;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.SpecTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/** Options every command shares: which profile's tables, and decision overrides. */
public final class ProfileOptions {

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "ascend-c",
            description = "Spec-table profile, a folder of spec-tables/ (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--tables", paramLabel = "DIR",
            description = "Read the profile from this folder instead of spec-tables/<profile>.")
    Path tables;

    @Option(names = "--decision", paramLabel = "ID=OPTION",
            description = "Choose an alternative of decisions.csv, e.g. directed-overflow=infinity (repeatable).")
    List<String> decisions = List.of();

    public Path tablesDirectory() {
        if (tables != null) {
            return tables;
        }
        Path dir = Home.specTables().resolve(profile);
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no profile '" + profile + "'; profiles: " + String.join(" ", profiles())
                    + " (or --tables DIR)");
        }
        return dir;
    }

    /** The profiles of the home's spec-tables/: its folders with a formats.csv. */
    private static List<String> profiles() {
        try (Stream<Path> folders = Files.list(Home.specTables())) {
            return folders.filter(p -> Files.isRegularFile(p.resolve("formats.csv"))).map(p -> p.getFileName().toString())
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    public SpecTables loadTables() {
        return SpecTables.load(tablesDirectory());
    }

    public Map<String, String> decisionOverrides() {
        Map<String, String> map = new LinkedHashMap<>();
        for (String d : decisions) {
            String[] parts = d.split("=", 2);
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new UsageException("bad --decision '" + d + "'; expected ID=OPTION, e.g. nan-encoding=canonical");
            }
            map.put(parts[0].strip(), parts[1].strip());
        }
        return map;
    }

    public Reference reference() {
        SpecTables t = loadTables();
        return new Reference(t, Semantics.of(t, decisionOverrides()));
    }
}
