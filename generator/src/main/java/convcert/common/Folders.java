package convcert.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders convcert made and removes. */
public final class Folders {

    private Folders() {
    }

    /** A generated vector set, all of it (--check's regenerated set, certify --plan's): best effort, never an error. */
    public static void delete(Path folder) {
        try (Stream<Path> walk = Files.walk(folder)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // already gone, or going: nothing else to do
        }
    }
}
