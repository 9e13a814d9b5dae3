package convcert.suite.adapters;

import convcert.common.Sha256;
import convcert.common.WorkingDirectory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Implementation identities for the report's provenance: files named with their SHA-256. */
final class Identity {

    private Identity() {
    }

    static String ofFile(String what, Path file) {
        return what + " " + WorkingDirectory.relative(file) + " (sha256 " + digest(file) + ")";
    }

    /**
     * A command line with the digest of every word that names a file: the executable (found on PATH
     * when it has no slash) and scripts or models given as arguments.
     */
    static String ofCommand(List<String> command, Path directory) {
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < command.size(); i++) {
            Path file = i == 0 ? executable(command.getFirst(), directory) : directory.resolve(command.get(i));
            if (file != null && Files.isRegularFile(file)) {
                digests.add(command.get(i) + " sha256 " + digest(file));
            }
        }
        return "command '" + String.join(" ", command) + "'" + (digests.isEmpty() ? "" : " (" + String.join(", ", digests) + ")");
    }

    private static Path executable(String name, Path directory) {
        if (name.contains("/")) {
            return directory.resolve(name);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Files larger than this are named by their size, not hashed (a digest must not hold up the run). */
    static final long HASHED = 64L << 30;

    /** The SHA-256 of a regular file; what else it is, otherwise (a FIFO or device is never read). */
    static String digest(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return "not a regular file";
            }
            long size = Files.size(file);
            return size > HASHED ? "not hashed: " + size + " bytes" : Sha256.of(file);
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
