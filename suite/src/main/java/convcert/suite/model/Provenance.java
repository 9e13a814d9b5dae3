package convcert.suite.model;

import convcert.common.Build;
import convcert.common.Version;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Where a report comes from: when (UTC), which convcert (version and git commit), on which JDK, OS
 * and host, against which implementation (ConverterAdapter.identity) and which golden vectors (the
 * SHA-256 of their manifest, or how the expected values were computed).
 */
public record Provenance(String date, String convcert, String commit, String jdk, String os, String host,
                         String implementation, String vectors) {

    public static final String VERSION = Version.VALUE;

    /** Now, on this machine and build (common.Build reads them), for an implementation and vector set. */
    public static Provenance of(String implementation, String vectors) {
        return new Provenance(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), VERSION, Build.commit(),
                Build.jdk(), Build.os(), Build.host(), implementation, vectors);
    }

    /** "convcert 0.5.0 (commit abc123...)" for --version and report headers. */
    public static String versionLine() {
        return Build.versionLine();
    }
}
