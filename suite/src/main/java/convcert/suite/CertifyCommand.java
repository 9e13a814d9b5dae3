package convcert.suite;

import convcert.cli.ProfileOptions;
import convcert.reference.Reference;
import convcert.reference.UsageException;
import convcert.spec.Conversion;
import convcert.suite.adapters.Adapters;
import convcert.suite.report.ConformanceReport;
import convcert.suite.report.HtmlReport;
import convcert.suite.report.JUnitXmlReport;
import convcert.suite.runner.ConformanceTests;
import convcert.suite.runner.SuiteRun;
import convcert.suite.runner.VectorStore;
import convcert.suite.runner.Waivers;
import convcert.suite.spi.AdapterContext;
import convcert.suite.spi.AdapterProvider;
import convcert.suite.spi.ConverterAdapter;
import convcert.vectors.Generator;
import convcert.vectors.Level;
import convcert.vectors.Progress;
import convcert.vectors.VectorFormat;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.junitplatform.AllureJunitPlatform;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** convcert certify: run the conformance suite against an adapter and write the reports. */
@Command(name = "certify", mixinStandardHelpOptions = true,
        description = {"Certify an implementation: run every case of the golden vectors (or, with --exhaustive, all",
                "2^32 inputs of 32-bit sources) through an adapter through the JUnit Platform, and write JUnit XML,",
                "Allure results, conformance.json and conformance.html. Exit: 0 pass, 1 mismatches, 2 usage or",
                "configuration error, 3 adapter failure."})
public final class CertifyCommand implements Callable<Integer> {

    @Mixin
    ProfileOptions profile;

    @Option(names = "--adapter", paramLabel = "NAME[:k=v,...]", defaultValue = "jdk",
            description = "The implementation under test (default: ${DEFAULT-VALUE}); see --list-adapters.")
    String adapter;

    @Option(names = "--list-adapters", description = "List the adapters found on the classpath and exit.")
    boolean listAdapters;

    @Option(names = "--vectors", paramLabel = "DIR", description = "Golden vectors (default: vectors/ of the repository).")
    Path vectors;

    @Option(names = "--level", paramLabel = "LEVEL",
            description = "Generate vectors at this level (quick, ci, full) into the output folder and certify those.")
    String level;

    @Option(names = "--pair", paramLabel = "FROM:TO", description = "Only these pairs (repeatable).")
    List<String> pairs = List.of();

    @Option(names = "--only", paramLabel = "GLOB",
            description = "Only cases whose name matches, e.g. 'float->half/rn-*' ('*' matches anything).")
    String only;

    @Option(names = "--exhaustive", description = "Stream all 2^32 inputs of each selected 32-bit-source pair, "
            + "compared with the reference on the fly (needs --pair).")
    boolean exhaustive;

    @Option(names = "--shard", paramLabel = "K/N", defaultValue = "1/1",
            description = "With --exhaustive: run the K-th of N equal input ranges (default: ${DEFAULT-VALUE}).")
    String shard;

    @Option(names = "--out", paramLabel = "DIR", description = "Report folder (default: reports/<adapter>).")
    Path out;

    @Option(names = "--waivers", paramLabel = "CSV", description = "Known deviations: case,reason,expires (ISO date).")
    Path waivers;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000",
            description = "Per-batch timeout for the adapter (default: ${DEFAULT-VALUE}).")
    long timeoutMillis;

    @Option(names = "--first", paramLabel = "N", defaultValue = "10",
            description = "Mismatches listed per failing case (default: ${DEFAULT-VALUE}).")
    int first;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (listAdapters) {
            for (AdapterProvider p : Adapters.providers()) {
                stdout.printf("%-10s %s%n", p.name(), p.description());
            }
            return 0;
        }
        Reference reference = profile.reference();
        List<Conversion> selected = ProfileOptions.pairs(reference, pairs);
        if (exhaustive && selected.isEmpty()) {
            throw new UsageException("--exhaustive needs --pair (each selected pair streams 2^32 inputs per case)");
        }
        String[] kn = shard.split("/");
        int k;
        int n;
        try {
            k = Integer.parseInt(kn[0]);
            n = Integer.parseInt(kn[1]);
        } catch (RuntimeException e) {
            throw new UsageException("bad --shard '" + shard + "'; expected K/N with 1 <= K <= N, e.g. 2/4");
        }
        if (n < 1 || k < 1 || k > n) {
            throw new UsageException("bad --shard '" + shard + "'; expected K/N with 1 <= K <= N");
        }
        String adapterName = adapter.contains(":") ? adapter.substring(0, adapter.indexOf(':')) : adapter;
        Path report = out != null ? out : ProfileOptions.home().resolve("reports").resolve(adapterName);
        Path vectorFolder = vectors != null ? vectors : ProfileOptions.home().resolve("vectors");
        if (level != null) {
            vectorFolder = generate(reference, selected, level, report.resolve("vectors-" + level), err);
        }
        VectorStore store = exhaustive ? null : VectorStore.open(vectorFolder);
        Waivers waiverList = waivers == null ? Waivers.none() : Waivers.read(waivers);
        ConverterAdapter implementation = Adapters.create(adapter,
                new AdapterContext(ProfileOptions.home(), vectorFolder, timeoutMillis, reference));
        for (String sub : List.of("junit", "allure-results")) {
            deleteTree(report.resolve(sub));
        }
        Files.createDirectories(report);
        SuiteRun run = new SuiteRun(new SuiteRun.Config(reference, adapter, implementation, store, selected, only,
                exhaustive, k, n, waiverList, timeoutMillis, first, LocalDate.now(), err, System.console() != null));
        SuiteRun.install(run);
        String source = exhaustive ? "exhaustive 2^32 inputs, shard " + shard : vectorFolder.toString();
        Thread partial = new Thread(() -> { // Ctrl-C: keep the results so far, stop the device's process
            writeReports(run, reference, source, report);
            run.close();
        });
        Runtime.getRuntime().addShutdownHook(partial);
        try {
            // An Allure lifecycle and listener of this run's own: the auto-registered listener keeps the
            // results folder of the first lifecycle in the JVM.
            AllureLifecycle allure = new AllureLifecycle(new FileSystemResultsWriter(report.resolve("allure-results")));
            Allure.setLifecycle(allure);
            Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                    .enableTestExecutionListenerAutoRegistration(false).build());
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectClass(ConformanceTests.class)).build();
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            launcher.execute(request, summary, new AllureJunitPlatform(allure));
            if (summary.getSummary().getTotalFailureCount() > 0 && run.results().isEmpty()) {
                summary.getSummary().printFailuresTo(err, 20); // discovery failed before any case ran
                throw new UsageException("the suite could not start; see above");
            }
        } finally {
            run.close();
            SuiteRun.install(null);
        }
        ConformanceReport result = writeReports(run, reference, source, report);
        Runtime.getRuntime().removeShutdownHook(partial);
        printMatrix(result, stdout);
        stdout.println("reports: " + report.resolve(HtmlReport.FILE) + ", " + report.resolve(ConformanceReport.FILE)
                + ", " + report.resolve("junit") + ", " + report.resolve("allure-results"));
        return result.exitCode();
    }

    private static ConformanceReport writeReports(SuiteRun run, Reference reference, String source, Path report) {
        ConformanceReport r = ConformanceReport.of(run.config().adapterSpec(), reference.tables().profile(),
                reference.tables().digest(), reference.semantics().choices(), source, run.results());
        try {
            r.write(report);
            HtmlReport.write(r, report);
            JUnitXmlReport.write(r, report.resolve("junit"));
        } catch (IOException e) {
            System.err.println("convcert: cannot write reports to " + report + ": " + e.getMessage());
        }
        return r;
    }

    static void printMatrix(ConformanceReport r, PrintWriter out) {
        out.printf("%-26s %5s %5s %5s %5s %5s %10s %10s%n", "pair", "pass", "fail", "n/a", "error", "waive", "vectors",
                "mismatches");
        r.cases().stream().map(ConformanceReport.Entry::pair).distinct().sorted().forEach(pair -> {
            List<ConformanceReport.Entry> cases = r.cases().stream().filter(e -> e.pair().equals(pair)).toList();
            out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", pair, count(cases, "PASS"), count(cases, "FAIL"),
                    count(cases, "NOT_APPLICABLE"), count(cases, "ADAPTER_ERROR"), count(cases, "WAIVED"),
                    cases.stream().mapToLong(ConformanceReport.Entry::vectors).sum(),
                    cases.stream().mapToLong(ConformanceReport.Entry::mismatches).sum());
        });
        var s = r.summary();
        out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", "total (" + s.cases() + " cases)", s.passed(), s.failed(),
                s.notApplicable(), s.adapterErrors(), s.waived(), s.vectors(), s.mismatches());
        out.println(switch (r.exitCode()) {
            case 0 -> "PASS: every applicable case agrees with the reference";
            case 1 -> "FAIL: mismatches";
            default -> "FAIL: the adapter failed";
        });
    }

    private static int count(List<ConformanceReport.Entry> cases, String status) {
        return (int) cases.stream().filter(e -> e.status().equals(status)).count();
    }

    private static Path generate(Reference reference, List<Conversion> selected, String level, Path folder,
                                 PrintWriter err) throws IOException {
        Level lvl = Level.parse(level);
        Files.createDirectories(folder);
        List<Conversion> pairs = selected.isEmpty() ? List.copyOf(reference.tables().conversions()) : selected;
        new Generator(new Generator.Options(reference, pairs, lvl, 1, EnumSet.of(VectorFormat.BIN), folder),
                new Progress(err, System.console() != null)).run();
        return folder;
    }

    static void deleteTree(Path p) throws IOException {
        if (Files.exists(p)) {
            try (Stream<Path> walk = Files.walk(p)) {
                for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
