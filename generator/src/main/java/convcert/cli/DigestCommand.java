package convcert.cli;

import convcert.common.UsageException;
import convcert.reference.ChunkDigest;
import convcert.reference.Converter;
import convcert.reference.KeptDigests;
import convcert.reference.Reference;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert digest: the reference's per-chunk digests over all 2^32 inputs of a 32-bit source. */
@Command(name = "digest", mixinStandardHelpOptions = true,
        header = "Print the reference's per-chunk digests over all 2^32 inputs of a 32-bit source.",
        description = "Print the reference's digest of every chunk of 2^BITS consecutive inputs of a 32-bit source "
                + "(one line 'chunk digest', hex), for comparing an implementation that cannot ship its outputs.")
public final class DigestCommand implements Callable<Integer> {

    @Mixin
    CaseOptions conversion;

    @Option(names = "--chunk-bits", paramLabel = "BITS", defaultValue = "24",
            description = "log2 of the chunk size (default: ${DEFAULT-VALUE}).")
    int chunkBits;

    @Option(names = "--exact-nan", description = "Digest NaN results as they are (default: every NaN counts as the "
            + "destination's canonical NaN of formats.csv).")
    boolean exactNan;

    @Option(names = "--cache", paramLabel = "DIR", description = "Keep the digests in DIR: a later run of the same "
            + "reference code, tables, decisions, case, chunk size and NaN rule prints them without 2^32 conversions, "
            + "after computing one chunk in 32 drawn at random (every chunk with --verify-cache); a kept digest that "
            + "contradicts its chunk is exit 4, and corrected.")
    Path cache;

    @Option(names = "--verify-cache", description = "With --cache: compute every chunk and check each kept digest.")
    boolean verifyCache;

    @Mixin
    ProfileOptions profile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (chunkBits < 8 || chunkBits > 32) {
            throw new UsageException("--chunk-bits must be 8..32");
        }
        Reference reference = profile.reference();
        Converter converter = reference.converter(conversion.resolve(reference));
        long nan = exactNan || converter.destination().isInteger() || !converter.destination().format().hasNan() ? -1
                : converter.destination().format().nan();
        if (verifyCache && cache == null) {
            throw new UsageException("--verify-cache checks the digests kept by --cache DIR: give --cache");
        }
        long[] digests = cache == null ? ChunkDigest.digests(converter, chunkBits, nan) : kept(reference, converter, nan);
        if (digests == null) {
            return 4;
        }
        PrintWriter out = spec.commandLine().getOut();
        for (int c = 0; c < digests.length; c++) {
            out.printf("%d %016x%n", c, digests[c]);
        }
        return 0;
    }

    /**
     * The digests through the cache (reference.KeptDigests): kept ones after a drawn sample of them is
     * computed again, else all computed and kept; null where a kept digest contradicts its chunk (the
     * file is corrected and the reason printed).
     */
    private long[] kept(Reference reference, Converter converter, long nan) {
        PrintWriter err = spec.commandLine().getErr();
        int chunks = 1 << (32 - chunkBits);
        String key = KeptDigests.key("the chunk digests of convcert digest", "tables " + reference.tables().profile() + " "
                + reference.tables().digest(), "decisions " + reference.semantics().choices(), "case "
                + converter.spec().conversion().pairName() + " " + converter.spec().rounding() + " "
                + converter.spec().stateLabel(), "chunk-bits " + chunkBits + " nan "
                + (nan < 0 ? "exact" : Long.toHexString(nan)));
        Path file = KeptDigests.file(cache, key);
        KeptDigests.Read read = KeptDigests.read(file, key);
        if (read.refused() != null) {
            err.println("convcert digest: " + file + " set aside: " + read.refused() + "; its digests computed again");
        }
        Map<Long, long[]> kept = new TreeMap<>(read.chunks());
        long[] digests = new long[chunks];
        boolean whole = kept.size() == chunks;
        for (int c = 0; c < chunks && whole; c++) {
            long[] e = kept.get((long) c << chunkBits);
            whole = e != null && e[0] == 1L << chunkBits;
            digests[c] = whole ? e[1] : 0;
        }
        if (whole) {
            SecureRandom random = new SecureRandom();
            List<Integer> drawn = IntStream.range(0, chunks).filter(c -> verifyCache
                    || random.nextInt(KeptDigests.SAMPLE) == 0).boxed().toList();
            Map<Integer, Long> again = new ConcurrentHashMap<>();
            drawn.parallelStream().forEach(c -> again.put(c, ChunkDigest.digests(converter, chunkBits, nan, c, c + 1)[0]));
            String contradicted = null;
            for (int c : drawn) {
                if (again.get(c) != digests[c]) {
                    contradicted = contradicted != null ? contradicted : "chunk " + c + " is kept as " + Long.toHexString(digests[c])
                            + ", computed " + Long.toHexString(again.get(c));
                    kept.put((long) c << chunkBits, new long[] {1L << chunkBits, again.get(c)});
                }
            }
            if (contradicted == null) {
                return digests;
            }
            store(file, key, kept, err);
            err.println("convcert digest: the kept digests in " + file + " contradict the reference (" + contradicted
                    + "): altered, or made by other code; corrected; run again (--verify-cache checks every chunk)");
            return null;
        }
        digests = ChunkDigest.digests(converter, chunkBits, nan);
        for (int c = 0; c < chunks; c++) {
            kept.put((long) c << chunkBits, new long[] {1L << chunkBits, digests[c]});
        }
        store(file, key, kept, err);
        return digests;
    }

    private static void store(Path file, String key, Map<Long, long[]> kept, PrintWriter err) {
        try {
            KeptDigests.write(file, key, kept);
        } catch (IOException | UncheckedIOException e) {
            err.println("convcert digest: could not keep the digests in " + file + " (" + e.getMessage() + ")");
        }
    }
}
