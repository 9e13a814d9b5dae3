package convcert.cli;

import convcert.common.Folders;
import convcert.common.Home;
import convcert.common.Progress;
import convcert.common.UsageException;
import convcert.common.WorkingDirectory;
import convcert.families.Families;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.vectors.DriftCheck;
import convcert.vectors.Generator;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFiles;
import convcert.vectors.VectorFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert generate: golden vectors from the spec tables. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        header = "Generate golden vectors from the spec tables.",
        description = "For every pair, rounding mode and saturation state of the profile: the coverage model's inputs "
                + "(generator/COVERAGE.md) and the reference's results, as CSV, raw little-endian binary and $readmemh "
                + "text, with a manifest. Same options, same bytes.")
public final class GenerateCommand implements Callable<Integer> {

    @Mixin
    ProfileOptions profile;

    @Option(names = "--pair", paramLabel = "FROM:TO", description = "Only these pairs (repeatable); types by name or alias.")
    List<String> pairs = List.of();

    @Option(names = "--level", paramLabel = "LEVEL", defaultValue = "ci",
            description = "quick, ci or full: the density of coverage.csv (default: ${DEFAULT-VALUE}).")
    String level;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the random inputs (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", paramLabel = "LIST", defaultValue = "csv,bin,memh", split = ",",
            description = "Layouts: csv, bin, memh (default: ${DEFAULT-VALUE}).")
    List<String> formats;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: vectors-PROFILE-LEVEL in the current "
            + "folder; with --check, the checkout's committed set).")
    Path out;

    @Option(names = "--update-golden", description = "Rewrite the checkout's committed golden set (vectors/): every pair of "
            + "its profile, in csv, bin and memh.")
    boolean updateGolden;

    @Option(names = "--check", description = "Regenerate into a temporary folder and compare with --out: exit 1 and list "
            + "the files and rows that changed (the golden-drift gate).")
    boolean check;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Level lvl = Level.parse(level);
        Set<VectorFormat> layouts = layouts();
        List<Conversion> selected = new ArrayList<>(reference.pairs(pairs));
        if (selected.isEmpty()) {
            selected.addAll(reference.tables().conversions());
        }
        Path target = target(reference.tables().profile(), lvl, layouts);
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        Path destination = check ? Files.createTempDirectory("convcert-drift") : target;
        // An interrupt (SIGINT, SIGTERM) ends the JVM without the finally below, the generator's threads still
        // writing: the hook calls their writes off, then removes the folder.
        Thread cleanup = new Thread(() -> VectorFiles.withdraw(destination, 5000, Folders::delete),
                "convcert-drift-cleanup");
        if (check) {
            Runtime.getRuntime().addShutdownHook(cleanup);
        }
        try {
            Files.createDirectories(destination);
            long start = System.nanoTime();
            // --pair selects exactly those conversions: no block or memory case comes with them
            Generator generator = new Generator(new Generator.Options(reference, selected, lvl, seed, layouts, destination,
                    pairs.isEmpty() ? Families.of(reference) : List.of()),
                    Progress.ofCases(err, System.console() != null));
            Generator.Result result = generator.run();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!check) {
                Generator.printSummary(result, stdout);
                stdout.printf("wrote %s in %.1f s%n", target, seconds);
                return 0;
            }
            return drift(reference, target, destination, result, lvl, seconds, stdout);
        } finally {
            if (check) {
                Folders.delete(destination);
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs, and finds nothing left
                }
            }
        }
    }

    /** --format's layouts, at least one. */
    private Set<VectorFormat> layouts() {
        Set<VectorFormat> layouts = EnumSet.noneOf(VectorFormat.class);
        for (String f : formats) {
            if (f.isBlank()) {
                continue;
            }
            VectorFormat vf = VectorFormat.parse(f.strip());
            if (vf == null) {
                throw new UsageException("unknown format '" + f + "'; formats: csv bin memh");
            }
            layouts.add(vf);
        }
        if (layouts.isEmpty()) {
            throw new UsageException("--format names no layout; use csv, bin and/or memh, e.g. --format bin");
        }
        return layouts;
    }

    /** --check: the set regenerated into destination against the golden set at target; 1 where they differ. */
    private int drift(Reference reference, Path target, Path destination, Generator.Result result, Level lvl, double seconds,
                      PrintWriter stdout) throws IOException {
        List<String> drift = DriftCheck.compare(reference.tables(), target, destination, pairs.isEmpty());
        if (drift.isEmpty()) {
            stdout.printf("golden set %s matches: %d cases regenerated at level %s, seed %d (%.1f s)%n", target,
                    result.entries().size(), lvl.label(), seed, seconds);
            return 0;
        }
        stdout.println("golden set " + target + " drifted (" + drift.size() + " differences); regenerate with"
                + " ./convcert generate --update-golden and commit it with the change:");
        drift.forEach(d -> stdout.println("  " + d));
        return 1;
    }

    /**
     * Where the vectors go: --out, or a folder of their own in the current folder. The checkout's committed set
     * is written only with --update-golden, and then whole (every pair, the three layouts, its own profile), so a
     * partial run never drops its other entries; --check reads it by default.
     */
    private Path target(String profileName, Level lvl, Set<VectorFormat> layouts) throws IOException {
        Path golden = Home.vectors();
        if (check) {
            return out != null ? out : golden;
        }
        if (updateGolden) {
            if (out != null || !pairs.isEmpty() || layouts.size() != VectorFormat.values().length) {
                throw new UsageException("--update-golden rewrites the whole committed set (" + WorkingDirectory.relative(golden)
                        + ": every pair, csv, bin and memh); leave out --out, --pair and --format");
            }
            Manifest committed = Manifest.readIn(golden);
            if (committed != null && committed.cases().stream().noneMatch(e -> e.profile().equals(profileName))) {
                throw new UsageException("--update-golden: the committed set " + WorkingDirectory.relative(golden)
                        + " is not profile " + profileName + "'s; generate other profiles with --out");
            }
            return golden;
        }
        Path target = out != null ? out : Path.of("vectors-" + profileName + "-" + lvl.label());
        if (target.toAbsolutePath().normalize().startsWith(golden.toAbsolutePath().normalize())) {
            throw new UsageException("--out " + target + " is the checkout's committed golden set; pass --update-golden (and no "
                    + "--out) to rewrite it");
        }
        return target;
    }
}
