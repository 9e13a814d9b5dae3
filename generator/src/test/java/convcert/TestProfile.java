package convcert;

import convcert.reference.Reference;
import convcert.spec.SpecTables;
import java.nio.file.Files;
import java.nio.file.Path;

/** The ascend-c profile as the tests see it: the repository's spec-tables, loaded once. */
public final class TestProfile {

    private static SpecTables tables;
    private static Reference reference;

    private TestProfile() {
    }

    public static Path home() {
        String home = System.getProperty("convcert.home");
        Path path = home != null ? Path.of(home) : Path.of("..");
        if (!Files.isDirectory(path.resolve("spec-tables"))) {
            throw new IllegalStateException("spec-tables not found under " + path.toAbsolutePath()
                    + "; run the tests through Maven or set -Dconvcert.home");
        }
        return path;
    }

    public static synchronized SpecTables tables() {
        if (tables == null) {
            tables = SpecTables.load(home().resolve("spec-tables/ascend-c"));
        }
        return tables;
    }

    /** Another profile of the repository, loaded fresh. */
    public static Reference reference(String profile) {
        return Reference.of(SpecTables.load(home().resolve("spec-tables").resolve(profile)));
    }

    public static synchronized Reference reference() {
        if (reference == null) {
            reference = Reference.of(tables());
        }
        return reference;
    }
}
