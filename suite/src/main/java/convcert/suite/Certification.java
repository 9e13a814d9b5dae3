package convcert.suite;

import convcert.common.Folders;
import convcert.common.Home;
import convcert.common.Progress;
import convcert.common.WorkingDirectory;
import convcert.families.Families;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spi.CaseKey;
import convcert.spi.CaseKind;
import convcert.spi.ConverterAdapter;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import convcert.suite.junit.SuiteLauncher;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.ExitCode;
import convcert.suite.model.Provenance;
import convcert.suite.report.ConsoleReport;
import convcert.suite.report.HtmlReport;
import convcert.suite.report.JsonReport;
import convcert.suite.report.RunReports;
import convcert.suite.runner.RunConfig;
import convcert.suite.runner.SuiteRun;
import convcert.suite.runner.VectorStore;
import convcert.vectors.Generator;
import convcert.vectors.Level;
import convcert.vectors.VectorFormat;
import io.qameta.allure.AllureLifecycle;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * One `convcert certify`: claims the report folder, makes the vectors (--level) or verifies them,
 * creates the adapter and the run, runs it on the JUnit Platform, and writes the reports once, at the
 * end or, on SIGINT/SIGTERM, partial. Returns the verdict's exit code.
 */
final class Certification {

    private final CertificationRequest request;
    private final PrintWriter stdout;
    private final PrintWriter err;

    Certification(CertificationRequest request, PrintWriter stdout, PrintWriter err) {
        this.request = request;
        this.stdout = stdout;
        this.err = err;
    }

    int run() throws IOException {
        Path report = request.out();
        RunReports reports = RunReports.claim(report);
        SuiteRun run;
        try {
            run = prepare(reports);
        } catch (RuntimeException | IOException e) {
            reports.release(); // nothing touched: the last run's reports stay current
            throw e;
        }
        try {
            reports.supersede();
        } catch (RuntimeException | IOException e) {
            run.close();
            reports.release();
            throw e;
        }
        Thread interrupted = interruptHook(reports, run, report);
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            AllureLifecycle allure = SuiteLauncher.allure(report.resolve("allure-results"));
            reports.allure(allure);
            SuiteLauncher.execute(run, allure, err);
        } finally {
            run.close();
        }
        ConformanceReport result;
        try {
            result = reports.write(false);
        } catch (RunReports.NotWritten e) {
            err.println("convcert: " + e.getMessage() + "; nothing is certified");
            return ExitCode.INTERNAL.code();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException shuttingDown) {
                // the interrupt's hook writes the reports and says so
            }
            reports.release();
        }
        if (result == null) {
            return ExitCode.INTERRUPTED.code();
        }
        return summarize(result, run, report);
    }

    /** SIGINT, SIGTERM: partial reports, then stop the device. */
    private Thread interruptHook(RunReports reports, SuiteRun run, Path report) {
        return new Thread(() -> {
            ConformanceReport partial;
            try {
                partial = reports.write(true);
            } catch (RunReports.NotWritten e) {
                err.println("convcert: " + e.getMessage());
                err.flush();
                partial = null;
            }
            run.close();
            if (partial != null) {
                stdout.println("convcert: interrupted; partial reports in " + WorkingDirectory.relative(report));
                stdout.println(partial.verdict().line());
                stdout.flush();
            }
        }, "convcert-interrupt");
    }

    /** The console's summary, where the reports lie, and the verdict's exit code. */
    private int summarize(ConformanceReport result, SuiteRun run, Path report) {
        ConsoleReport.print(result, stdout, request.only(), request.pairArguments());
        if (run.cacheSummary() != null) {
            stdout.println(run.cacheSummary());
        }
        stdout.println("reports: " + WorkingDirectory.relative(report.resolve(HtmlReport.FILE)) + ", "
                + WorkingDirectory.relative(report.resolve(JsonReport.FILE)) + ", "
                + WorkingDirectory.relative(report.resolve("junit")) + ", "
                + WorkingDirectory.relative(report.resolve("allure-results")));
        ConformanceReport.Verdict verdict = result.verdict();
        stdout.println(verdict.line());
        return verdict.exitCode();
    }

    /**
     * --plan: the run's cases, vectors and a time estimate from a short calibration (CertificationPlan),
     * nothing certified and no report written; --level's vectors are made in a temporary folder.
     */
    int plan() throws IOException {
        Path temp = request.level() == null ? null : Files.createTempDirectory("convcert-plan");
        try {
            Path vectorFolder = temp == null ? request.vectors() : generate(request.reference(), temp);
            SuiteRun run = open(vectorFolder);
            try {
                return CertificationPlan.print(run, request, stdout);
            } finally {
                run.close();
            }
        } finally {
            if (temp != null) {
                Folders.delete(temp);
            }
        }
    }

    /** The vectors, the adapter and the run, its waivers checked and its reports' header set. */
    private SuiteRun prepare(RunReports reports) throws IOException {
        Reference reference = request.reference();
        Path vectorFolder = request.level() == null ? request.vectors()
                : generate(reference, request.out().resolve("vectors-" + request.level()));
        SuiteRun run = open(vectorFolder);
        try {
            VectorStore store = run.config().vectors();
            String source = request.exhaustive() ? "exhaustive: all 2^32 inputs, expected values computed by the reference"
                    : WorkingDirectory.relative(vectorFolder).toString();
            Provenance provenance = Provenance.of(run.config().adapter().identity(), request.exhaustive() ? "no stored vectors"
                    : "manifest.json sha256 " + store.manifestDigest());
            String shard = request.shards() > 1 ? request.shardText() : null;
            reports.of(run::results, run::planned, entries -> new ConformanceReport(Provenance.versionLine(), provenance,
                    request.adapter(), reference.tables().profile(), reference.tables().digest(),
                    reference.semantics().choices(), reference.tables().documents(), source, shard, false, run.declared(), run.unmatched(),
                    run.notes(), null, List.of()).withCases(entries));
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /** The vectors verified, the adapter made, the run planned and its waivers checked. */
    private SuiteRun open(Path vectorFolder) {
        Reference reference = request.reference();
        VectorStore store = request.exhaustive() ? null : VectorStore.open(vectorFolder);
        if (store != null) {
            String profileName = reference.tables().profile();
            List<Conversion> selected = request.pairs();
            store.verify(store.cases().stream().filter(e -> e.profile().equals(profileName)).toList(), reference,
                    e -> selected.isEmpty() || (e.kind() == CaseKind.CONVERSION
                            && selected.contains(reference.conversion(e.from(), e.to()))));
        }
        SuiteContext context = new SuiteContext(Home.path(), vectorFolder, request.timeoutMillis(), reference);
        ConverterAdapter implementation = Adapters.create(request.adapter(), context, request.adapters());
        SuiteRun run = new SuiteRun(RunConfig.of(reference, request.adapter(), implementation).vectors(store)
                .cases(request.pairs(), request.only(), request.exhaustive()).shard(request.shard(), request.shards())
                .waivers(request.waivers()).limits(request.timeoutMillis(), request.first())
                .progress(err, System.console() != null)
                .jobs(request.jobs(), () -> Adapters.create(request.adapter(), context, request.adapters()))
                .outputsAreExpected(Adapters.computesExpected(implementation, reference)).cache(request.cache()).build());
        try {
            List<CaseKey> known = new ArrayList<>(run.profileCases());
            run.plan().values().forEach(cases -> cases.forEach(p -> known.add(p.key())));
            request.waivers().checkAgainst(known);
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /** --level: the selected pairs' vectors at that level, made into folder. */
    private Path generate(Reference reference, Path folder) throws IOException {
        Level level = Level.parse(request.level());
        Files.createDirectories(folder);
        List<Conversion> pairs = request.pairs().isEmpty() ? List.copyOf(reference.tables().conversions()) : request.pairs();
        new Generator(new Generator.Options(reference, pairs, level, 1, EnumSet.of(VectorFormat.BIN), folder,
                Families.of(reference)), Progress.ofCases(err, System.console() != null)).run();
        return folder;
    }
}
