package convcert.suite;

import convcert.cli.ProfileOptions;
import convcert.reference.Reference;
import convcert.reference.UsageException;
import convcert.spec.Conversion;
import convcert.spec.WorkingDirectory;
import convcert.spi.AdapterProvider;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import convcert.suite.report.ConformanceReport;
import convcert.suite.report.HtmlReport;
import convcert.suite.report.JUnitXmlReport;
import convcert.suite.report.Provenance;
import convcert.suite.report.RunReports;
import convcert.suite.runner.CaseResult;
import convcert.suite.runner.ConformanceTests;
import convcert.suite.runner.SuiteRun;
import convcert.suite.runner.VectorStore;
import convcert.suite.runner.Waivers;
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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert certify: run the conformance suite against an adapter and write the reports. */
@Command(name = "certify", mixinStandardHelpOptions = true,
        header = "Certify an implementation against the golden vectors and write the reports.",
        description = "Runs every case of the golden vectors (or, with --exhaustive, all 2^32 inputs of 32-bit "
                + "sources) through an adapter on the JUnit Platform, and writes JUnit XML, Allure results, "
                + "conformance.json and conformance.html. Exit: 0 pass, 1 mismatches, 2 usage or configuration "
                + "error, 3 adapter failure, 4 a case could not run, 5 nothing certified, 130/143 interrupted "
                + "(reports marked partial).")
public final class CertifyCommand implements Callable<Integer> {

    @Mixin
    ProfileOptions profile;

    @Option(names = "--adapter", paramLabel = "NAME[:k=v,...]", defaultValue = "jdk",
            description = "The implementation under test (default: ${DEFAULT-VALUE}); see --list-adapters.")
    String adapter;

    @Option(names = "--list-adapters", description = "List the adapters found (classpath and --adapter-path) and exit.")
    boolean listAdapters;

    @Option(names = "--adapter-path", paramLabel = "JAR|DIR",
            description = "A jar, or a folder of jars, with third-party adapters (ServiceLoader, suite/ADAPTERS.md); repeatable.")
    List<Path> adapterPath = List.of();

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

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "1",
            description = "With --exhaustive: split each case's inputs over N instances of the adapter (N processes "
                    + "or device handles, each on its own thread), judged as one case (default: ${DEFAULT-VALUE}). "
                    + "The reference's expected values use every core whatever N is.")
    int jobs;

    @Option(names = "--out", paramLabel = "DIR", description = "Report folder (default: reports/<adapter> in the working directory).")
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
        ClassLoader adapters = Adapters.loader(adapterPath);
        if (listAdapters) {
            for (AdapterProvider p : Adapters.providers(adapters)) {
                stdout.printf("%-10s %s%n", p.name(), p.description());
            }
            return 0;
        }
        if (timeoutMillis <= 0) {
            throw new UsageException("--timeout-ms must be a positive number of milliseconds, got " + timeoutMillis);
        }
        if (first < 0) {
            throw new UsageException("--first must be 0 or more, got " + first);
        }
        Reference reference = profile.reference();
        List<Conversion> selected = ProfileOptions.pairs(reference, pairs);
        if (exhaustive && selected.isEmpty()) {
            throw new UsageException("--exhaustive needs --pair (each selected pair streams 2^32 inputs per case)");
        }
        for (Conversion c : exhaustive ? selected : List.<Conversion>of()) {
            if (c.from().width() != 32) {
                throw new UsageException("--exhaustive streams 2^32 inputs: " + c.pairName() + " has a " + c.from().width()
                        + "-bit source (its vectors are exhaustive at --level full already)");
            }
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
        if (n > 1 && !exhaustive) {
            throw new UsageException("--shard splits the 2^32 inputs of --exhaustive; without --exhaustive every "
                    + "vector case would run whole in each shard");
        }
        if (jobs < 1 || (jobs > 1 && !exhaustive)) {
            throw new UsageException(jobs < 1 ? "--jobs must be 1 or more, got " + jobs
                    : "--jobs splits the 2^32 inputs of --exhaustive cases; vector cases run on one adapter");
        }
        String adapterName = adapter.contains(":") ? adapter.substring(0, adapter.indexOf(':')) : adapter;
        Path report = out != null ? out : Path.of("reports").resolve(adapterName); // relative to the working directory
        Path vectorFolder = vectors != null ? vectors : ProfileOptions.home().resolve("vectors");
        Waivers waiverList = waivers == null ? Waivers.none() : Waivers.read(waivers);
        RunReports reports = RunReports.claim(report);
        SuiteRun run = null;
        try {
            if (level != null) {
                vectorFolder = generate(reference, selected, level, report.resolve("vectors-" + level), err);
            }
            VectorStore store = exhaustive ? null : VectorStore.open(vectorFolder);
            if (store != null) {
                String profileName = reference.tables().profile();
                store.verify(store.cases().stream().filter(e -> e.profile().equals(profileName)
                        && !e.state().equals("memory")).toList(), reference,
                        e -> selected.isEmpty() || (!VectorStore.isBlock(e)
                                && selected.contains(reference.conversion(e.from(), e.to()))));
            }
            SuiteContext context = new SuiteContext(ProfileOptions.home(), vectorFolder, timeoutMillis, reference);
            ConverterAdapter implementation = Adapters.create(adapter, context, adapters);
            run = new SuiteRun(new SuiteRun.Config(reference, adapter, implementation, store, selected, only,
                    exhaustive, k, n, waiverList, timeoutMillis, first, LocalDate.now(), err, System.console() != null,
                    jobs, () -> Adapters.create(adapter, context, adapters)));
            List<CaseKey> known = new ArrayList<>(run.profileCases());
            run.plan().values().forEach(cases -> cases.forEach(p -> known.add(p.key())));
            waiverList.checkAgainst(known);
            Header header = new Header(reference, run, exhaustive ? "exhaustive: all 2^32 inputs, expected values "
                    + "computed by the reference" : WorkingDirectory.relative(vectorFolder).toString(), n > 1 ? shard : null,
                    Provenance.of(implementation.identity(), exhaustive ? "no stored vectors"
                            : "manifest.json sha256 " + store.manifestDigest()));
            reports.of(run, header::report);
        } catch (RuntimeException | IOException e) {
            if (run != null) {
                run.close();
            }
            reports.release();
            throw e;
        }
        SuiteRun suiteRun = run;
        Thread interrupted = new Thread(() -> { // SIGINT, SIGTERM: partial reports, then stop the device
            ConformanceReport partial = reports.write(true, err);
            suiteRun.close();
            if (partial != null) {
                stdout.println("convcert: interrupted; partial reports in " + WorkingDirectory.relative(report));
                stdout.println(partial.verdict().line());
                stdout.flush();
            }
        }, "convcert-interrupt");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            // An Allure lifecycle and listener of this run's own: the auto-registered listener keeps the
            // results folder of the first lifecycle in the JVM.
            AllureLifecycle allure = new AllureLifecycle(new FileSystemResultsWriter(report.resolve("allure-results")));
            Allure.setLifecycle(allure);
            reports.allure(allure);
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectClass(ConformanceTests.class)).build();
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            try (LauncherSession session = LauncherFactory.openSession(LauncherConfig.builder()
                    .enableTestExecutionListenerAutoRegistration(false).build())) {
                session.getStore().put(Namespace.create(SuiteRun.NAMESPACE), SuiteRun.class, run); // SuiteRunResolver
                session.getLauncher().execute(request, summary, new AllureJunitPlatform(allure));
            }
            if (summary.getSummary().getTotalFailureCount() > 0 && run.results().isEmpty() && !run.planned().isEmpty()) {
                summary.getSummary().printFailuresTo(err, 20); // discovery failed before any case ran
                throw new UsageException("the suite could not start; see above");
            }
        } finally {
            run.close();
        }
        ConformanceReport result = reports.write(false, err);
        try {
            Runtime.getRuntime().removeShutdownHook(interrupted);
        } catch (IllegalStateException shuttingDown) {
            return 130; // the interrupt's hook writes the reports and says so
        }
        reports.release();
        if (result == null) {
            return 130;
        }
        printMatrix(result, stdout);
        printFindings(result, stdout, only, pairs);
        stdout.println("reports: " + WorkingDirectory.relative(report.resolve(HtmlReport.FILE)) + ", "
                + WorkingDirectory.relative(report.resolve(ConformanceReport.FILE)) + ", "
                + WorkingDirectory.relative(report.resolve("junit")) + ", "
                + WorkingDirectory.relative(report.resolve("allure-results")));
        ConformanceReport.Verdict verdict = result.verdict();
        stdout.println(verdict.line());
        return verdict.exitCode();
    }

    /** What every report of the run states besides its cases. */
    private record Header(Reference reference, SuiteRun run, String source, String shard, Provenance provenance) {
        ConformanceReport report(List<ConformanceReport.Entry> entries) {
            return new ConformanceReport(Provenance.versionLine(), provenance, run.config().adapterSpec(),
                    reference.tables().profile(), reference.tables().digest(), reference.semantics().choices(), source,
                    shard, false, run.declared(), run.unmatched(), run.notes(), null, List.of()).withCases(entries);
        }
    }

    static void write(ConformanceReport r, Path folder) throws IOException {
        r.write(folder);
        HtmlReport.write(r, folder);
        JUnitXmlReport.write(r, folder.resolve("junit"));
    }

    static void printMatrix(ConformanceReport r, PrintWriter out) {
        out.printf("%-26s %5s %5s %5s %5s %5s %10s %10s%n", "pair", "pass", "fail", "n/a", "error", "waive", "vectors",
                "mismatches");
        r.cases().stream().map(ConformanceReport.Entry::pair).distinct().sorted().forEach(pair -> {
            List<ConformanceReport.Entry> cases = r.cases().stream().filter(e -> e.pair().equals(pair)).toList();
            out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", pair, count(cases, "PASS"), count(cases, "FAIL"),
                    count(cases, "NOT_APPLICABLE"), count(cases, "ADAPTER_ERROR") + count(cases, "ERROR"),
                    count(cases, "WAIVED"), cases.stream().mapToLong(ConformanceReport.Entry::vectors).sum(),
                    cases.stream().mapToLong(ConformanceReport.Entry::mismatches).sum());
        });
        var s = r.summary();
        out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", "total (" + s.cases() + " cases)", s.passed(), s.failed(),
                s.notApplicable(), s.adapterErrors() + s.errors(), s.waived(), s.vectors(),
                s.mismatches() + s.waivedMismatches());
    }

    /** Maximum failing cases the console lists; the reports list them all. */
    static final int LISTED_CASES = 20;

    /**
     * What a CI log reader acts on: declared capabilities that match nothing, notes on the expected
     * values, an empty selection, and each case that did not pass with its first mismatch or message.
     */
    static void printFindings(ConformanceReport r, PrintWriter out, String only, List<String> pairs) {
        if (!r.unmatched().isEmpty()) {
            out.println("warning: " + r.unmatched().size() + " of " + r.declared().size() + " declared capabilities match "
                    + "no case of profile " + r.profile() + " (a misspelt type, rounding or state?):");
            r.unmatched().forEach(c -> out.println("  " + c));
        }
        r.notes().forEach(n -> out.println("note: " + n));
        if (r.cases().isEmpty()) {
            String selection = Stream.of(only == null ? null : "--only '" + only + "'",
                    pairs.isEmpty() ? null : "--pair " + String.join(" --pair ", pairs)).filter(x -> x != null)
                    .collect(java.util.stream.Collectors.joining(" with "));
            out.println("nothing selected: " + (selection.isEmpty() ? "the vectors hold no case of profile " + r.profile()
                    + " (only ascend-c's golden set is committed; --level ci generates and certifies any profile's)"
                    : selection + " selects no case of profile " + r.profile()));
        }
        List<ConformanceReport.Entry> bad = r.cases().stream().filter(e -> !e.status().equals("PASS")
                && !e.status().equals("NOT_APPLICABLE")).toList();
        bad.stream().limit(LISTED_CASES).forEach(e -> {
            out.println(e.status() + " " + e.name() + variant(e) + (e.mismatches() > 0 ? ": " + e.mismatches() + " of "
                    + e.vectors() + " vectors differ " + e.kinds() : ""));
            if (e.message() != null) {
                e.message().lines().forEach(line -> out.println("    " + line));
            }
            if (!e.firstMismatches().isEmpty()) {
                out.println("    first: " + e.firstMismatches().getFirst());
            }
            if (e.diagnosis() != null) {
                out.println("    diagnosis: " + e.diagnosis());
            }
        });
        if (bad.size() > LISTED_CASES) {
            out.println("... and " + (bad.size() - LISTED_CASES) + " more cases that did not pass (see the reports)");
        }
        java.util.Map<String, Long> byCause = new java.util.TreeMap<>();
        for (ConformanceReport.Entry e : bad) {
            if (e.status().equals("FAIL")) {
                byCause.merge(ConformanceReport.cause(e.diagnosis()), 1L, Long::sum);
            }
        }
        if (byCause.size() > 0 && byCause.keySet().stream().anyMatch(k -> !k.equals("unexplained"))) {
            out.println("failing cases by diagnosis: " + byCause.entrySet().stream().map(x -> x.getKey() + " " + x.getValue())
                    .collect(java.util.stream.Collectors.joining(", ")));
        }
    }

    /** " [form sat, CTRL 60=0,48=1]": how the adapter was asked to select the case's saturation. */
    static String variant(ConformanceReport.Entry e) {
        if (e.form() == null || e.form().equals("-") || e.name().contains(" [")) {
            return ""; // no form (memory cases), or a variant that names its form and bits already
        }
        return " [form " + e.form() + (e.ctrl() == null || e.ctrl().isEmpty() ? "" : ", CTRL " + e.ctrl()) + "]";
    }

    private static int count(List<ConformanceReport.Entry> cases, String status) {
        return (int) cases.stream().filter(e -> e.status().equals(status)).count();
    }

    private static Path generate(Reference reference, List<Conversion> selected, String level, Path folder,
                                 PrintWriter err) throws IOException {
        Level lvl = Level.parse(level);
        Files.createDirectories(folder);
        List<Conversion> pairs = selected.isEmpty() ? List.copyOf(reference.tables().conversions()) : selected;
        new Generator(new Generator.Options(reference, pairs, lvl, 1, EnumSet.of(VectorFormat.BIN), folder,
                convcert.cli.ProfileOptions.extensions(reference)),
                new Progress(err, System.console() != null)).run();
        return folder;
    }
}
