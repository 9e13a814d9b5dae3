package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.reference.KeptDigests;
import convcert.reference.Reference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Digests of exhaustive cases' expected values, kept between runs (issue 43). What the reference must
 * produce for a chunk of consecutive inputs depends only on the reference's code, the profile's tables,
 * the decisions, the case and how values are packed: the key. A later run hashes the implementation's
 * outputs and compares them with the chunk's digest instead of computing the chunk again (PackedRunner).
 *
 * <p>Nothing here can turn a wrong answer into a pass: a digest is only ever made from the reference's
 * own computation, never from an answer; a file (reference.KeptDigests) is named by the SHA-256 of its
 * key, repeats the key, and ends with the SHA-256 of its lines, and one that fails either check is set
 * aside (a note says so) and made again; after each answer, a chunk is drawn for recomputation with
 * probability 1/{@link KeptDigests#SAMPLE} (every chunk with verifyAll), and a digest the recomputation contradicts
 * is an error of the case (exit 4), its entry corrected, never a pass. suite/ADAPTERS.md says what this
 * guarantees.
 */
public final class ExpectedCache {

    private final Path folder;
    private final boolean verifyAll;
    private final String tables;
    private final Consumer<String> notes;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Digests> open = new ConcurrentHashMap<>();
    /** Chunks judged by their kept digest alone, kept chunks computed anyway (drawn, or answered otherwise), chunks computed and kept. */
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong checked = new AtomicLong();
    private final AtomicLong made = new AtomicLong();

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

    /** The digests of a case (state: its state name) whose values pack into inBytes and outBytes, shared by its --jobs parts. */
    Digests of(Converter reference, String state, int inBytes, int outBytes) {
        String key = KeptDigests.key("the chunk digests of one exhaustive case (certify)", "tables " + tables,
                "decisions " + reference.semantics().choices(), "case " + state,
                "packing " + inBytes + " " + outBytes + " " + PackedRunner.CHUNK + " " + ByteOrder.nativeOrder());
        return open.computeIfAbsent(key, k -> new Digests(KeptDigests.file(folder, k), k));
    }

    /** What the run took from the cache and put in it, for the console (reports stay as without it); null if nothing. */
    public String summary() {
        if (taken.get() + checked.get() + made.get() == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "expected values: %,d chunks of %,d judged by their digests in %s, %,d more computed "
                + "again to check them, %,d computed and kept", taken.get(), PackedRunner.CHUNK, folder, checked.get(), made.get());
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
            KeptDigests.Read read = KeptDigests.read(file, key);
            known.putAll(read.chunks());
            if (read.refused() != null) {
                changed = true; // made again from this run's computation
                notes.accept("the expected-value cache file " + file + " was set aside: " + read.refused()
                        + "; its chunks were computed again");
            }
        }

        /** The digest of the chunk of count inputs from first, or null where none is kept. */
        Long digest(long first, int count) {
            long[] e = known.get(first);
            return e != null && e[0] == count ? e[1] : null;
        }

        /** A digest the reference made for a chunk it computed (kept: a digest checked; else a new one). */
        synchronized void made(long first, int count, long digest, boolean kept) {
            (kept ? checked : made).incrementAndGet();
            Long before = digest(first, count);
            if (before == null || before != digest) {
                known.put(first, new long[] {count, digest});
                changed = true;
            }
        }

        /** A kept chunk judged by its digest alone. */
        void taken() {
            taken.incrementAndGet();
        }

        /** Whether to compute a chunk that answered as its digest says anyway: drawn now, after the answer. */
        boolean sample() {
            return verifyAll || random.nextInt(KeptDigests.SAMPLE) == 0;
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
                KeptDigests.write(file, key, known);
                changed = false;
            } catch (IOException | UncheckedIOException e) {
                notes.accept("the expected-value cache could not be written (" + e.getMessage() + "): the next run computes "
                        + "the expected values again");
            }
        }
    }
}
