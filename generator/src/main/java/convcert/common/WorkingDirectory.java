package convcert.common;

import java.nio.file.Path;

/**
 * Paths as a user would type them: relative to the working directory (climbing with .. where
 * needed), so reports carry no machine's layout; absolute only when the two share nothing but the root.
 */
public final class WorkingDirectory {

    private WorkingDirectory() {
    }

    public static Path relative(Path p) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        Path abs = p.toAbsolutePath().normalize();
        if (abs.equals(cwd)) {
            return Path.of(".");
        }
        boolean shared = cwd.getNameCount() > 0 && abs.getNameCount() > 0 && cwd.getName(0).equals(abs.getName(0))
                && cwd.getRoot() != null && cwd.getRoot().equals(abs.getRoot());
        return shared ? cwd.relativize(abs) : abs;
    }
}
