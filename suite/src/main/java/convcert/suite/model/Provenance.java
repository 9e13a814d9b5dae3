package convcert.suite.model;

import convcert.common.Home;
import convcert.common.Version;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Properties;

/**
 * Where a report comes from: when (UTC), which convcert (version and git commit), on which JDK, OS
 * and host, against which implementation (ConverterAdapter.identity) and which golden vectors (the
 * SHA-256 of their manifest, or how the expected values were computed).
 */
public record Provenance(String date, String convcert, String commit, String jdk, String os, String host,
                         String implementation, String vectors) {

    public static final String VERSION = Version.VALUE;

    public static Provenance of(String implementation, String vectors) {
        return new Provenance(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), VERSION, gitCommit(),
                System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                hostName(), implementation, vectors);
    }

    /** "convcert 0.5.0 (commit abc123...)" for --version and report headers. */
    public static String versionLine() {
        String commit = gitCommit();
        return "convcert " + VERSION + (commit == null ? "" : " (commit " + commit + ")");
    }

    /**
     * The commit of the checkout convcert runs from (convcert.home), read from .git without running
     * git; outside a checkout (an installed convcert) the commit it was built from; null if neither.
     */
    public static String gitCommit() {
        Path git = Home.path().resolve(".git");
        try {
            if (!Files.isDirectory(git)) {
                return builtFrom();
            }
            String head = Files.readString(git.resolve("HEAD")).strip();
            if (!head.startsWith("ref: ")) {
                return head;
            }
            String ref = head.substring(5);
            Path loose = git.resolve(ref);
            if (Files.isRegularFile(loose)) {
                return Files.readString(loose).strip();
            }
            Path packed = git.resolve("packed-refs");
            if (Files.isRegularFile(packed)) {
                for (String line : Files.readAllLines(packed)) {
                    if (line.endsWith(" " + ref)) {
                        return line.substring(0, line.indexOf(' '));
                    }
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** The commit the build was made from (convcert/git.properties, written by the build), or null. */
    private static String builtFrom() {
        try (InputStream in = Provenance.class.getResourceAsStream("/convcert/git.properties")) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            String commit = p.getProperty("git.commit.id");
            return commit == null || commit.isBlank() ? null : commit;
        } catch (IOException e) {
            return null;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
