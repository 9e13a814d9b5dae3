package convcert.suite.report;

import convcert.reference.UsageException;
import convcert.spec.WorkingDirectory;
import convcert.spi.CaseKey;
import convcert.suite.model.CaseResult;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.Status;
import io.qameta.allure.AllureLifecycle;
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
import java.util.function.Function;
import java.util.function.Supplier;

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
    private Supplier<List<CaseResult>> results;
    private Supplier<List<CaseKey>> planned;
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
            throw new UsageException("another convcert run is writing to " + shown(folder)
                    + " (it holds " + LOCK + "); give this run another --out");
        }
        removeEarlierOutput(folder);
        return new RunReports(folder, channel, held);
    }

    /**
     * The run whose results go in: its results so far, the keys of its planned cases, and how its case
     * entries become its report (partial set by write).
     */
    public synchronized void of(Supplier<List<CaseResult>> runResults, Supplier<List<CaseKey>> plannedCases,
                                Function<List<ConformanceReport.Entry>, ConformanceReport> report) {
        this.results = runResults;
        this.planned = plannedCases;
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
        if (written || results == null) {
            return null;
        }
        written = true;
        List<CaseResult> all = new ArrayList<>(results.get());
        if (partial) {
            Set<String> done = new HashSet<>();
            all.forEach(r -> done.add(r.key().name()));
            for (CaseKey key : planned.get()) {
                if (!done.contains(key.name())) {
                    CaseResult notRun = CaseResult.without(key, Status.NOT_RUN, "not run: the run was interrupted");
                    all.add(notRun);
                    if (allure != null) {
                        AllureResults.notRun(allure, notRun);
                    }
                }
            }
        }
        ConformanceReport r = model.apply(all.stream().map(ConformanceReport::entry).toList()).withPartial(partial);
        try {
            write(r, folder);
            if (allure != null) {
                AllureResults.extras(r, folder.resolve("allure-results"));
            }
        } catch (IOException e) {
            err.println("convcert: cannot write reports to " + shown(folder) + ": " + e.getMessage());
        }
        return r;
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

    /** The JSON, HTML and JUnit XML reports of r in folder (certify's, and report merge's). */
    public static void write(ConformanceReport r, Path folder) throws IOException {
        JsonReport.write(r, folder);
        HtmlReport.write(r, folder);
        JUnitXmlReport.write(r, folder.resolve("junit"));
    }

    private static String shown(Path p) {
        return WorkingDirectory.relative(p).toString();
    }
}
