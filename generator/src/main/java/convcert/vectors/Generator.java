package convcert.vectors;

import convcert.common.Progress;
import convcert.common.Sha256;
import convcert.common.Version;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Turns a profile's tables into golden vectors: for every pair, the coverage model's inputs; for
 * every rounding mode and saturation state the pair offers, the reference's results in each layout,
 * and a manifest entry. Pairs run in parallel; output does not depend on the order.
 */
public final class Generator {

    public static final String VERSION = "convcert-generator " + Version.VALUE;

    /** extensions: cases beside the conversions (ExtensionCases), e.g. the OpenCL memory functions. */
    public record Options(Reference reference, List<Conversion> pairs, Level level, long seed,
                          Set<VectorFormat> formats, Path out, List<ExtensionCases> extensions) {

        /** A pair named twice is generated once: two threads writing one pair's files would race. */
        public Options {
            pairs = List.copyOf(new LinkedHashSet<>(pairs));
        }

        public Options(Reference reference, List<Conversion> pairs, Level level, long seed, Set<VectorFormat> formats,
                       Path out) {
            this(reference, pairs, level, seed, formats, out, List.of());
        }
    }

    /** One pair's summary line. */
    public record PairSummary(String pair, int cases, int inputs, long vectors, Map<String, Integer> coverage) {
    }

    public record Result(List<Manifest.Entry> entries, List<PairSummary> pairs, long vectors) {
    }

    private final Options options;
    private final Progress progress;

    public Generator(Options options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    public Result run() throws IOException {
        Reference reference = options.reference();
        CoverageModel model = new CoverageModel(reference, CoverageTag.builtIn(), options.level(), options.seed());
        int totalCases = 0;
        for (Conversion c : options.pairs()) {
            for (Rounding mode : c.modes()) {
                totalCases += reference.saturationVariants(c, mode).size();
            }
        }
        // The old manifest is set aside before any file changes and the new one written last: a run cut
        // short leaves no manifest.json, never one that describes files it no longer matches.
        Path manifestFile = options.out().resolve(Manifest.FILE);
        Path setAside = options.out().resolve(SET_ASIDE);
        boolean interruptedBefore = !Files.exists(manifestFile) && Files.exists(setAside);
        Manifest previous = Files.exists(manifestFile) ? Manifest.read(manifestFile)
                : interruptedBefore ? Manifest.read(setAside) : null;
        if (Files.exists(manifestFile)) {
            Files.move(manifestFile, setAside, StandardCopyOption.REPLACE_EXISTING);
        }
        progress.start(totalCases);
        Map<String, PairSummary> summaries = new ConcurrentHashMap<>();
        List<Manifest.Entry> entries = Collections.synchronizedList(new ArrayList<>());
        AtomicLong vectors = new AtomicLong();
        try {
            options.pairs().parallelStream().forEach(c -> {
                try {
                    summaries.put(c.pairName(), generatePair(reference, model, c, entries, vectors));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        for (ExtensionCases extension : options.extensions()) {
            for (Manifest.Entry e : extension.write(options.out(), options.level(), options.seed(), options.formats())) {
                entries.add(e);
                vectors.addAndGet(e.count());
            }
        }
        progress.finish();
        Map<String, Manifest.Entry> merged = new TreeMap<>();
        if (previous != null) {
            for (Manifest.Entry e : previous.cases()) {
                if (unchanged(e, interruptedBefore)) {
                    merged.put(e.name(), e);
                }
            }
        }
        entries.forEach(e -> merged.put(e.name(), e));
        new Manifest(VERSION, Manifest.FORMAT_VERSION, List.copyOf(merged.values())).write(options.out());
        Files.deleteIfExists(setAside);
        List<PairSummary> ordered = summaries.values().stream().sorted(Comparator.comparing(PairSummary::pair)).toList();
        return new Result(entries.stream().sorted(Comparator.comparing(Manifest.Entry::name)).toList(), ordered,
                vectors.get());
    }

    private PairSummary generatePair(Reference reference, CoverageModel model, Conversion c,
                                     List<Manifest.Entry> entries, AtomicLong vectors) throws IOException {
        TaggedInputs tagged = model.inputs(c);
        long[] pairInputs = tagged.bits();
        String[] pairTags = tagged.tags();
        long[] pairExpected = new long[pairInputs.length];
        int cases = 0;
        long pairVectors = 0;
        for (Rounding mode : c.modes().stream().sorted().toList()) {
            for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                Case state = variants.getFirst();
                Converter converter = reference.converter(state);
                // A case with a lane (random bits, a scale) has operands: each input beside lane values.
                boolean operands = converter.lane() != null;
                TaggedInputs modeTagged = operands ? model.operands(c, converter, tagged) : tagged;
                long[] inputs = operands ? modeTagged.bits() : pairInputs;
                String[] tags = operands ? modeTagged.tags() : pairTags;
                long[] expected = operands ? new long[inputs.length] : pairExpected;
                converter.apply(inputs, 0, expected, 0, inputs.length);
                for (Case variant : variants) {
                    sameResults(reference, variant, inputs, expected);
                }
                entries.add(CaseWriter.write(options.out(), reference, variants, inputs, expected, tags, modeTagged.counts(),
                        options.formats(), options.level(), options.seed()));
                vectors.addAndGet(inputs.length);
                pairVectors += inputs.length;
                progress.caseDone(inputs.length);
                cases++;
            }
        }
        return new PairSummary(c.pairName(), cases, pairInputs.length, pairVectors, tagged.counts());
    }

    /** Where the previous manifest waits while a generation runs (see run). */
    static final String SET_ASIDE = "." + Manifest.FILE + ".previous";

    /**
     * Whether an earlier entry (of a pair this run did not regenerate) still describes its files: they
     * exist and, after an interrupted run that may have rewritten some, still have their SHA-256.
     */
    private boolean unchanged(Manifest.Entry e, boolean verifyDigests) throws IOException {
        for (Manifest.FileRef f : e.files().values()) {
            Path file = options.out().resolve(f.path());
            if (!Files.isRegularFile(file) || (verifyDigests && !f.sha256().equals(Sha256.of(file)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The variants of a state share its expected values: that is what the state label claims, so a
     * variant that computes otherwise is a bug of the labelling, not a vector to write.
     */
    private static void sameResults(Reference reference, Case variant, long[] inputs, long[] expected) {
        long[] got = new long[inputs.length];
        reference.converter(variant).apply(inputs, 0, got, 0, inputs.length);
        if (!Arrays.equals(got, expected)) {
            throw new IllegalStateException(variant.conversion().pairName() + " " + reference.names().variantLabel(variant)
                    + " computes other results than its state " + variant.stateLabel());
        }
    }

    /** Prints the per-pair coverage summary. */
    public static void printSummary(Result result, PrintWriter out) {
        out.printf("%-28s %5s %8s %10s  %s%n", "pair", "cases", "inputs", "vectors", "coverage points per tag");
        for (PairSummary p : result.pairs()) {
            out.printf("%-28s %5d %8d %10d  %s%n", p.pair(), p.cases(), p.inputs(), p.vectors(),
                    p.coverage().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(" ")));
        }
        out.printf("%d pairs, %d cases, %d vectors%n", result.pairs().size(),
                result.pairs().stream().mapToInt(PairSummary::cases).sum(), result.vectors());
    }
}
