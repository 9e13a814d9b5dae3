package convcert.suite.report;

import convcert.spi.CaseKey;
import convcert.suite.runner.CaseResult;
import convcert.suite.runner.Status;
import convcert.suite.runner.SuiteRun;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.TestResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The one writer of a run's report folder. It holds the folder's lock for the run, removes only the
 * files an earlier run of convcert wrote there, and writes the reports exactly once: complete at
 * the end of the run, or partial when an interrupt (SIGINT, SIGTERM) comes first, every planned case
 * that did not finish then listed as NOT_RUN in every report (JSON, HTML, JUnit, Allure).
 */
public final class RunReports {

    /** The lock file in a report folder: two runs never write one folder at once. */
    public static final String LOCK = ".convcert.lock";

    private final Path folder;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private SuiteRun run;
    private Function<List<ConformanceReport.Entry>, ConformanceReport> model;
    private AllureLifecycle allure;
    private boolean written;

    private RunReports(Path folder, FileChannel lockChannel, FileLock lock) {
        this.folder = folder;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Locks the report folder (exit 2 when another run holds it) and clears what earlier runs wrote. */
    public static RunReports claim(Path folder) throws IOException {
        FileChannel channel = lock(folder);
        FileLock held;
        try {
            held = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            held = null;
        }
        if (held == null) {
            channel.close();
            throw new convcert.reference.UsageException("another convcert run is writing to " + shown(folder)
                    + " (it holds " + LOCK + "); give this run another --out");
        }
        removeEarlierOutput(folder);
        return new RunReports(folder, channel, held);
    }

    /** The run whose results go in, and how its case entries become its report (partial set by write). */
    public synchronized void of(SuiteRun suiteRun, Function<List<ConformanceReport.Entry>, ConformanceReport> report) {
        this.run = suiteRun;
        this.model = report;
    }

    private static FileChannel lock(Path folder) throws IOException {
        Files.createDirectories(folder);
        return FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    /** Files of an earlier run: its JUnit XML and Allure results; anything else in the folder stays. */
    private static void removeEarlierOutput(Path folder) throws IOException {
        deleteMatching(folder.resolve("junit"), "TEST-convcert-*.xml");
        deleteMatching(folder.resolve("allure-results"), "*-{result.json,container.json,attachment*}");
    }

    private static void deleteMatching(Path dir, String glob) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        }
    }

    public void allure(AllureLifecycle lifecycle) {
        this.allure = lifecycle;
    }

    /**
     * Writes the reports unless they are written already (returns null then). partial: the run was
     * interrupted; the planned cases without a result become NOT_RUN.
     */
    public synchronized ConformanceReport write(boolean partial, PrintWriter err) {
        if (written || run == null) {
            return null;
        }
        written = true;
        List<CaseResult> results = new ArrayList<>(run.results());
        if (partial) {
            Set<String> done = new HashSet<>();
            results.forEach(r -> done.add(r.key().name()));
            for (CaseKey key : run.planned()) {
                if (!done.contains(key.name())) {
                    CaseResult notRun = CaseResult.without(key, Status.NOT_RUN, "not run: the run was interrupted");
                    results.add(notRun);
                    allureNotRun(notRun);
                }
            }
        }
        ConformanceReport base = model.apply(results.stream().map(ConformanceReport::entry).toList());
        ConformanceReport r = new ConformanceReport(base.tool(), base.provenance(), base.adapter(), base.profile(),
                base.tables(), base.decisions(), base.source(), base.shard(), partial, base.declared(), base.unmatched(),
                base.notes(), null, List.of()).withCases(base.cases());
        try {
            r.write(folder);
            HtmlReport.write(r, folder);
            JUnitXmlReport.write(r, folder.resolve("junit"));
            if (allure != null) {
                allureExtras(r, folder.resolve("allure-results"));
            }
        } catch (IOException e) {
            err.println("convcert: cannot write reports to " + shown(folder) + ": " + e.getMessage());
        }
        return r;
    }

    /**
     * Allure's environment (the run's adapter, profile, tables, decisions, provenance) and categories:
     * one per kind of mismatch (the failure messages name their kinds in brackets), adapter failures.
     */
    private static void allureExtras(ConformanceReport r, Path results) throws IOException {
        Files.createDirectories(results);
        StringBuilder env = new StringBuilder();
        java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
        values.put("adapter", r.adapter());
        values.put("profile", r.profile());
        values.put("tables", r.tables());
        values.put("source", r.source());
        values.put("convcert", r.provenance() == null ? "" : r.provenance().convcert() + " " + r.provenance().commit());
        values.put("implementation", r.provenance() == null ? "" : r.provenance().implementation());
        r.decisions().forEach((id, option) -> values.put("decision." + id, option));
        values.forEach((k, v) -> env.append(k).append('=').append(v == null ? "" : v.replace("\\", "\\\\")
                .replace("\n", " ")).append('\n'));
        Files.writeString(results.resolve("environment.properties"), env);
        StringBuilder categories = new StringBuilder("[\n");
        for (String kind : r.summary().kinds().keySet()) {
            categories.append("  {\"name\": \"").append(json(kind)).append("\", \"matchedStatuses\": [\"failed\"], ")
                    .append("\"messageRegex\": \"(?s).*\\\\[").append(json(java.util.regex.Pattern.quote(kind)))
                    .append("\\\\].*\"},\n");
        }
        categories.append("  {\"name\": \"adapter failures\", \"matchedStatuses\": [\"broken\"]}\n]\n");
        Files.writeString(results.resolve("categories.json"), categories);
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** An Allure result for a case cut by the interrupt: broken, with why. */
    private void allureNotRun(CaseResult r) {
        if (allure == null) {
            return;
        }
        String uuid = UUID.randomUUID().toString();
        allure.scheduleTestCase(new TestResult().setUuid(uuid).setName(r.key().name()).setFullName(r.key().name())
                .setHistoryId(r.key().profile() + "/" + r.key().name())
                .setStatus(io.qameta.allure.model.Status.BROKEN)
                .setStatusDetails(new StatusDetails().setMessage(r.message())));
        allure.startTestCase(uuid);
        allure.stopTestCase(uuid);
        allure.writeTestCase(uuid);
    }

    /** Releases the folder's lock. */
    public void release() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            // the lock goes with the process
        }
    }

    private static String shown(Path p) {
        return convcert.spec.WorkingDirectory.relative(p).toString();
    }
}
