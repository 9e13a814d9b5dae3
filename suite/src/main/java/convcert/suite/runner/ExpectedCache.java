package convcert.suite.runner;

import convcert.common.Sha256;
import convcert.reference.Converter;
import convcert.reference.Reference;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Digests of exhaustive cases' expected values, kept between runs (issue 43). What the reference must
 * produce for a chunk of consecutive inputs depends only on the reference's code, the profile's tables,
 * the decisions, the case and how values are packed: the key. A later run hashes the implementation's
 * outputs and compares them with the chunk's digest instead of computing the chunk again (PackedRunner).
 *
 * <p>Nothing here can turn a wrong answer into a pass: a digest is only ever made from the reference's
 * own computation, never from an answer; a file is named by the SHA-256 of its key, repeats the key, and
 * ends with the SHA-256 of its lines, and one that fails either check is set aside (a note says so) and
 * made again; after each answer, a chunk is drawn for recomputation with probability 1/{@link #SAMPLE}
 * (every chunk with verifyAll), and a digest the recomputation contradicts is an error of the case
 * (exit 4), its entry corrected, never a pass. suite/ADAPTERS.md says what this guarantees.
 */
public final class ExpectedCache {

    /** One chunk in SAMPLE, drawn after the implementation answered, is computed again and compared. */
    static final int SAMPLE = 32;

    private static final String MAGIC = "# convcert expected-value cache 1: chunk digests of one exhaustive case";

    private static volatile String code;

    private final Path folder;
    private final boolean verifyAll;
    private final String tables;
    private final Consumer<String> notes;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Digests> open = new ConcurrentHashMap<>();

    /** Where a run keeps the cache, and whether it recomputes every chunk anyway (--verify-cache). */
    public record Settings(Path folder, boolean verifyAll) {
    }

    /** The cache of settings for runs of reference; notes: what a reader of the run's reports must know. */
    ExpectedCache(Settings settings, Reference reference, Consumer<String> notes) {
        this.folder = settings.folder();
        this.verifyAll = settings.verifyAll();
        this.tables = reference.tables().profile() + " " + reference.tables().digest();
        this.notes = notes;
    }

    /** The default folder: $CONVCERT_CACHE, else $XDG_CACHE_HOME/convcert, else ~/.cache/convcert. */
    public static Path defaultFolder() {
        String own = System.getenv("CONVCERT_CACHE");
        if (own != null && !own.isBlank()) {
            return Path.of(own);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("convcert");
    }

    /** The digests of a case (state: its state name) whose values pack into inBytes and outBytes, shared by its --jobs parts. */
    Digests of(Converter reference, String state, int inBytes, int outBytes) {
        String key = String.join("\n", MAGIC, "reference " + code(), "tables " + tables,
                "decisions " + reference.semantics().choices(), "case " + state,
                "packing " + inBytes + " " + outBytes + " " + PackedRunner.CHUNK + " " + ByteOrder.nativeOrder()) + "\n";
        return open.computeIfAbsent(key, k -> new Digests(folder.resolve(Sha256.of(k.getBytes(StandardCharsets.UTF_8))
                .substring(0, 32) + ".digests"), k));
    }

    /**
     * The reference's version: the SHA-256 of the generator's code (every file in its jar or under its
     * classes folder, by name), so that any change to the code computing expected values makes another key.
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
                } else { // a jar's entries, not its bytes: a rebuild of the same code changes only their timestamps
                    try (JarFile jar = new JarFile(where.toFile())) {
                        for (JarEntry e : jar.stream().filter(e -> !e.isDirectory()).sorted(Comparator.comparing(JarEntry::getName)).toList()) {
                            try (InputStream in = jar.getInputStream(e)) {
                                all.append(e.getName()).append(' ').append(Sha256.of(in.readAllBytes())).append('\n');
                            }
                        }
                    }
                }
                code = Sha256.of(all.toString().getBytes(StandardCharsets.UTF_8));
            } catch (IOException | URISyntaxException e) {
                throw new IllegalStateException("cannot read the reference's code to key the expected-value cache", e);
            }
        }
        return code;
    }

    /** One case's chunk digests: those read from its file, those made in this run. */
    final class Digests {
        private final Path file;
        private final String key;
        /** first input -> {count, digest}. */
        private final Map<Long, long[]> known = new ConcurrentHashMap<>();
        private boolean changed;

        private Digests(Path file, String key) {
            this.file = file;
            this.key = key;
            read();
        }

        /** The digest of the chunk of count inputs from first, or null where none is kept. */
        Long digest(long first, int count) {
            long[] e = known.get(first);
            return e != null && e[0] == count ? e[1] : null;
        }

        /** A digest the reference made for the chunk (it replaces a contradicted one). */
        synchronized void made(long first, int count, long digest) {
            known.put(first, new long[] {count, digest});
            changed = true;
        }

        /** Whether to compute a chunk that answered as its digest says anyway: drawn now, after the answer. */
        boolean sample() {
            return verifyAll || random.nextInt(SAMPLE) == 0;
        }

        /** The file, for messages. */
        Path file() {
            return file;
        }

        /** Writes the digests made in this run beside those kept, atomically; a failure is a note, never the run's. */
        synchronized void store() {
            if (!changed) {
                return;
            }
            try {
                Files.createDirectories(folder);
                StringBuilder text = new StringBuilder(key);
                new TreeMap<>(known).forEach((first, e) -> text.append(Long.toHexString(first)).append(' ')
                        .append(e[0]).append(' ').append(Long.toHexString(e[1])).append('\n'));
                String lines = text.toString();
                text.append("sha256 ").append(Sha256.of(lines.getBytes(StandardCharsets.UTF_8))).append('\n');
                Path temporary = Files.createTempFile(folder, ".digests", ".tmp");
                Files.writeString(temporary, text);
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                changed = false;
            } catch (IOException | UncheckedIOException e) {
                notes.accept("the expected-value cache could not be written (" + e.getMessage() + "): the next run computes "
                        + "the expected values again");
            }
        }

        private void read() {
            if (!Files.isRegularFile(file)) {
                return;
            }
            String why;
            try {
                why = parse(Files.readString(file));
            } catch (IOException | UncheckedIOException e) {
                why = "unreadable (" + e.getMessage() + ")";
            }
            if (why != null) {
                known.clear();
                changed = true; // made again from this run's computation
                notes.accept("the expected-value cache file " + file + " was set aside: " + why
                        + "; its chunks were computed again");
            }
        }

        /** Reads a file's text into known; why it cannot be used, or null. */
        private String parse(String text) {
            int end = text.lastIndexOf("sha256 ");
            if (end < 0 || !text.substring(end).strip().equals("sha256 "
                    + Sha256.of(text.substring(0, end).getBytes(StandardCharsets.UTF_8)))) {
                return "its SHA-256 line does not match its lines (altered or cut short)";
            }
            if (!text.startsWith(key)) {
                return "it was made for another key (reference code, tables, decisions, case or packing)";
            }
            List<String> lines = new ArrayList<>(text.substring(key.length(), end).lines().toList());
            for (String line : lines) {
                String[] f = line.split(" ");
                try {
                    known.put(Long.parseUnsignedLong(f[0], 16), new long[] {Long.parseLong(f[1]), Long.parseUnsignedLong(f[2], 16)});
                } catch (RuntimeException e) {
                    return "line '" + line + "' is not 'first count digest'";
                }
            }
            return null;
        }
    }
}
