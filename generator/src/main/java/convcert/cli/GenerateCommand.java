package convcert.cli;

import convcert.common.Folders;
import convcert.common.Home;
import convcert.common.Progress;
import convcert.common.UsageException;
import convcert.families.Families;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.vectors.DriftCheck;
import convcert.vectors.Generator;
import convcert.vectors.Level;
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

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: vectors/ of the repository).")
    Path out;

    @Option(names = "--check", description = "Regenerate into a temporary folder and compare with --out: exit 1 and list "
            + "the files and rows that changed (the golden-drift gate).")
    boolean check;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Level lvl = Level.parse(level);
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
        List<Conversion> selected = new ArrayList<>(reference.pairs(pairs));
        if (selected.isEmpty()) {
            selected.addAll(reference.tables().conversions());
        }
        Path target = out != null ? out : Home.vectors();
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
            Generator generator = new Generator(new Generator.Options(reference, selected, lvl, seed, layouts, destination,
                    Families.of(reference)),
                    Progress.ofCases(err, System.console() != null));
            Generator.Result result = generator.run();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!check) {
                Generator.printSummary(result, stdout);
                stdout.printf("wrote %s in %.1f s%n", target, seconds);
                return 0;
            }
            List<String> drift = DriftCheck.compare(reference.tables(), target, destination, pairs.isEmpty());
            if (drift.isEmpty()) {
                stdout.printf("golden set %s matches: %d cases regenerated at level %s, seed %d (%.1f s)%n", target,
                        result.entries().size(), lvl.label(), seed, seconds);
                return 0;
            }
            stdout.println("golden set " + target + " drifted (" + drift.size() + " differences); regenerate with"
                    + " ./convcert generate --level " + lvl.label() + " --seed " + seed + " and commit it with the change:");
            drift.forEach(d -> stdout.println("  " + d));
            return 1;
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
}
