package convcert.common;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** The build and the machine convcert runs on, as reports record them: version line, commit, JDK, OS, host. */
public final class Build {

    private Build() {
    }

    /** "convcert 0.5.0 (commit abc123...)" for --version and report headers. */
    public static String versionLine() {
        String commit = commit();
        return "convcert " + Version.VALUE + (commit == null ? "" : " (commit " + commit + ")");
    }

    /** The JDK running convcert: vendor and version. */
    public static String jdk() {
        return System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version");
    }

    /** The operating system: name, version and architecture. */
    public static String os() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    }

    /**
     * The commit of the checkout convcert runs from (convcert.home), read from .git without running
     * git; outside a checkout (an installed convcert) the commit it was built from; null if neither.
     */
    public static String commit() {
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
        try (InputStream in = Build.class.getResourceAsStream("/convcert/git.properties")) {
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

    /** This machine's host name, or "unknown". */
    public static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
