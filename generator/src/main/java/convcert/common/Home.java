package convcert.common;

import java.nio.file.Path;

/**
 * The convcert home, resolved here and nowhere else: the checkout or unpacked distribution that holds
 * spec-tables/ and the committed vectors/. The launcher passes it as -Dconvcert.home; without it, the
 * working directory.
 */
public final class Home {

    private Home() {
    }

    public static Path path() {
        String home = System.getProperty("convcert.home");
        return Path.of(home == null || home.isBlank() ? "." : home);
    }

    /** spec-tables/, one folder per profile. */
    public static Path specTables() {
        return path().resolve("spec-tables");
    }

    /** The committed golden vectors. */
    public static Path vectors() {
        return path().resolve("vectors");
    }

    /**
     * convcert's folder in the user's cache ($XDG_CACHE_HOME/convcert, else ~/.cache/convcert): what
     * convcert builds or computes once and keeps (native helpers, kept digests), never part of the home.
     */
    public static Path userCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("convcert");
    }

    /** The fault catalogue, shared by every profile: what certify's diagnosis and score try. */
    public static Path faults() {
        return specTables().resolve("faults.csv");
    }
}
