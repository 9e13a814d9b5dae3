package convcert.reference;

import convcert.common.Home;
import convcert.common.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Digests of the reference's expected values kept in a file between runs (issue 43): certify's cache of
 * exhaustive chunks and `convcert digest --cache`. A file holds its key (lines naming everything the
 * digests depend on), a line "first count digest" (hex, decimal, hex) per chunk, and the SHA-256 of all
 * that as its last line; it is named by the SHA-256 of its key. One whose key or last line does not
 * match is refused, never read.
 */
public final class KeptDigests {

    /** One kept chunk in SAMPLE, drawn at random after its answer is in, is computed again and compared. */
    public static final int SAMPLE = 32;

    private static volatile String code;

    private KeptDigests() {
    }

    /** What a file read gives: its chunks (first input -> {count, digest}), or why it was refused (chunks empty). */
    public record Read(Map<Long, long[]> chunks, String refused) {
    }

    /** The default folder: $CONVCERT_CACHE, else convcert's folder in the user's cache (Home.userCache). */
    public static Path defaultFolder() {
        String own = System.getenv("CONVCERT_CACHE");
        return own != null && !own.isBlank() ? Path.of(own) : Home.userCache();
    }

    /** A key: its first line says what the file holds, the others what the digests depend on, the reference's code first. */
    public static String key(String what, String... lines) {
        return "# convcert kept digests 1: " + what + "\nreference " + code() + "\n" + String.join("\n", lines) + "\n";
    }

    /** The file of key in folder. */
    public static Path file(Path folder, String key) {
        return folder.resolve(Sha256.of(key.getBytes(StandardCharsets.UTF_8)).substring(0, 32) + ".digests");
    }

    /** The chunks of the file of key; none, and no refusal, where there is no file. */
    public static Read read(Path file, String key) {
        if (!Files.isRegularFile(file)) {
            return new Read(new TreeMap<>(), null);
        }
        try {
            String text = Files.readString(file);
            int end = text.lastIndexOf("sha256 ");
            if (end < 0 || !text.substring(end).strip().equals("sha256 "
                    + Sha256.of(text.substring(0, end).getBytes(StandardCharsets.UTF_8)))) {
                return new Read(new TreeMap<>(), "its SHA-256 line does not match its lines (altered or cut short)");
            }
            if (!text.startsWith(key)) {
                return new Read(new TreeMap<>(), "it was made for another key (reference code, tables, decisions, case or packing)");
            }
            Map<Long, long[]> chunks = new TreeMap<>();
            for (String line : text.substring(key.length(), end).lines().toList()) {
                String[] f = line.split(" ");
                try {
                    chunks.put(Long.parseUnsignedLong(f[0], 16), new long[] {Long.parseLong(f[1]), Long.parseUnsignedLong(f[2], 16)});
                } catch (RuntimeException e) {
                    return new Read(new TreeMap<>(), "line '" + line + "' is not 'first count digest'");
                }
            }
            return new Read(chunks, null);
        } catch (IOException | UncheckedIOException e) {
            return new Read(new TreeMap<>(), "unreadable (" + e.getMessage() + ")");
        }
    }

    /** Writes the file of key with chunks, whole: into a temporary file in its folder, then renamed over it. */
    public static void write(Path file, String key, Map<Long, long[]> chunks) throws IOException {
        StringBuilder text = new StringBuilder(key);
        new TreeMap<>(chunks).forEach((first, e) -> text.append(Long.toHexString(first)).append(' ').append(e[0]).append(' ')
                .append(Long.toHexString(e[1])).append('\n'));
        String lines = text.toString();
        text.append("sha256 ").append(Sha256.of(lines.getBytes(StandardCharsets.UTF_8))).append('\n');
        Files.createDirectories(file.getParent());
        Path temporary = Files.createTempFile(file.getParent(), ".digests", ".tmp");
        try {
            Files.writeString(temporary, text);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * The reference's version: the SHA-256 of the generator's code (every file in its jar or under its
     * classes folder, by name; a jar's entries, not its bytes, since a rebuild of the same code changes
     * only their timestamps), so that any change to the code computing expected values makes another key.
     */
    static String code() {
        if (code == null) {
            try {
                Path where = Path.of(Converter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                StringBuilder all = new StringBuilder();
                if (Files.isDirectory(where)) {
                    try (Stream<Path> files = Files.walk(where)) {
                        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                            all.append(where.relativize(f)).append(' ').append(Sha256.of(f)).append('\n');
                        }
                    }
                } else {
                    try (JarFile jar = new JarFile(where.toFile())) {
                        for (JarEntry e : jar.stream().filter(e -> !e.isDirectory())
                                .sorted(Comparator.comparing(JarEntry::getName)).toList()) {
                            try (InputStream in = jar.getInputStream(e)) {
                                all.append(e.getName()).append(' ').append(Sha256.of(in.readAllBytes())).append('\n');
                            }
                        }
                    }
                }
                code = Sha256.of(all.toString().getBytes(StandardCharsets.UTF_8));
            } catch (IOException | URISyntaxException e) {
                throw new IllegalStateException("cannot read the reference's code to key its kept digests", e);
            }
        }
        return code;
    }
}
