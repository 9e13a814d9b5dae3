package convcert.suite.report;

import convcert.common.UsageException;
import convcert.common.WorkingDirectory;
import convcert.spi.CaseKey;
import convcert.suite.model.CaseResult;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.Status;
import io.qameta.allure.AllureLifecycle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The one writer of a report folder (certify's --out, report merge's). It holds the folder's lock,
 * and once the run is ready to start (every argument, table, vector folder and the adapter checked, so a
 * typo never costs the last report) it sets aside what the last run wrote there, as that run's ledger
 * (LEDGER) lists it: its conformance.json and .html move into SUPERSEDED, its JUnit XML and Allure
 * results are removed, anything else stays. So a run that is killed never leaves an earlier PASS
 * looking current. The reports are written exactly once: complete at the end, or partial when an
 * interrupt (SIGINT, SIGTERM) comes first, every planned case that did not finish then NOT_RUN in
 * every report; conformance.json last. A report that cannot be written fails the run (exit 4).
 */
public final class RunReports {

    /** The lock file in a report folder: two runs never write one folder at once. */
    public static final String LOCK = ".convcert.lock";
    /** What the last run wrote in the folder, one relative path a line. */
    static final String LEDGER = ".convcert-files";
    /** Where the last run's reports go when a new run starts. */
    public static final String SUPERSEDED = "superseded";

    private final Path folder;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Set<Path> allureBefore;
    private Supplier<List<CaseResult>> results;
    private Supplier<List<CaseKey>> planned;
    private Function<List<ConformanceReport.Entry>, ConformanceReport> model;
    private AllureLifecycle allure;
    private boolean written;

    private RunReports(Path folder, FileChannel lockChannel, FileLock lock) throws IOException {
        this.folder = folder;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.allureBefore = allureFiles();
    }

    /** A report that could not be written: the run is not certified (exit 4). */
    public static final class NotWritten extends RuntimeException {
        NotWritten(Path file, Exception e) {
            super("cannot write " + shown(file) + ": " + reason(e), e, false, false);
        }

        private static String reason(Exception e) {
            String why = e.getMessage();
            return e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                    : why == null ? e.getClass().getSimpleName() : why.lines().findFirst().orElse(why);
        }
    }

    /** Locks the report folder (exit 2 when another run holds it) and sets aside what the last run wrote. */
    public static RunReports claim(Path folder) throws IOException {
        Files.createDirectories(folder);
        FileChannel channel = FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
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
        return new RunReports(folder, channel, held);
    }

    /** The last run's reports set aside (SUPERSEDED): called once this run is ready to write its own. */
    public void supersede() throws IOException {
        setAside(folder);
    }

    /**
     * The last run's reports into SUPERSEDED, its other files removed, as its ledger lists them. Without
     * a ledger (an older convcert's folder) its reports and its JUnit XML, by their names.
     */
    private static void setAside(Path folder) throws IOException {
        Path ledger = folder.resolve(LEDGER);
        List<String> listed = new ArrayList<>();
        if (Files.isRegularFile(ledger)) {
            listed.addAll(Files.readAllLines(ledger));
        } else {
            listed.addAll(List.of(JsonReport.FILE, HtmlReport.FILE));
            Path junit = folder.resolve("junit");
            if (Files.isDirectory(junit)) {
                try (var old = Files.newDirectoryStream(junit, "TEST-convcert-*.xml")) {
                    old.forEach(f -> listed.add(folder.relativize(f).toString()));
                }
            }
        }
        Path superseded = folder.resolve(SUPERSEDED);
        for (String line : listed) {
            Path file = folder.resolve(line).normalize();
            if (line.isBlank() || !file.startsWith(folder.normalize()) || !Files.isRegularFile(file)) {
                continue; // not a file the ledger can name
            }
            if (line.equals(JsonReport.FILE) || line.equals(HtmlReport.FILE)) {
                Files.createDirectories(superseded);
                Files.move(file, superseded.resolve(line), StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.delete(file);
            }
        }
        Files.deleteIfExists(ledger);
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

    public void allure(AllureLifecycle lifecycle) {
        this.allure = lifecycle;
    }

    /**
     * Writes the reports unless they are written already (returns null then). partial: the run was
     * interrupted; the planned cases without a result become NOT_RUN. Throws NotWritten when a report
     * cannot be written.
     */
    public synchronized ConformanceReport write(boolean partial) {
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
        return finish(r);
    }

    /**
     * Writes r (the run's report, or report merge's) with the folder's ledger; returns it. Throws
     * NotWritten when a report cannot be written.
     */
    public synchronized ConformanceReport finish(ConformanceReport r) {
        written = true;
        List<Path> files = new ArrayList<>();
        if (allure != null) {
            Path results = folder.resolve("allure-results");
            attempt(results, () -> AllureResults.extras(r, results));
            try {
                allureFiles().stream().filter(f -> !allureBefore.contains(f)).forEach(files::add);
            } catch (IOException e) {
                throw new NotWritten(results, e);
            }
        }
        files.addAll(write(r, folder));
        Path ledger = folder.resolve(LEDGER);
        attempt(ledger, () -> Files.write(ledger, files.stream().map(f -> folder.relativize(f).toString()).toList()));
        return r;
    }

    /**
     * The HTML and JUnit XML reports of r in folder, then conformance.json; returns the files written.
     * Throws NotWritten naming the file that could not be.
     */
    private static List<Path> write(ConformanceReport r, Path folder) {
        Path junit = folder.resolve("junit");
        List<Path> files = new ArrayList<>();
        attempt(junit, () -> files.add(JUnitXmlReport.write(r, junit)));
        attempt(folder.resolve(HtmlReport.FILE), () -> HtmlReport.write(r, folder));
        files.add(folder.resolve(HtmlReport.FILE));
        attempt(folder.resolve(JsonReport.FILE), () -> JsonReport.write(r, folder));
        files.add(folder.resolve(JsonReport.FILE));
        return files;
    }

    private interface Writing {
        void run() throws IOException;
    }

    private static void attempt(Path file, Writing writing) {
        try {
            writing.run();
        } catch (IOException | UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            throw new NotWritten(file, e);
        }
    }

    private Set<Path> allureFiles() throws IOException {
        Path results = folder.resolve("allure-results");
        if (!Files.isDirectory(results)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(results)) {
            return new HashSet<>(files.filter(Files::isRegularFile).toList());
        }
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
        return WorkingDirectory.relative(p).toString();
    }
}
