package convcert.suite;

import convcert.cli.ProfileOptions;
import convcert.common.Home;
import convcert.common.UsageException;
import convcert.common.WorkingDirectory;
import convcert.reference.KeptDigests;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.suite.adapters.Adapters;
import convcert.suite.runner.ExpectedCache;
import convcert.suite.runner.JobArray;
import convcert.suite.runner.Waivers;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert certify: its options and their checks; Certification runs it. */
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

    @Option(names = "--plan", description = "Print the cases, vectors and an estimate of the time (from a calibration "
            + "of about 2 s through the adapter) and exit 5: nothing is certified, no report written.")
    boolean plan;

    @Option(names = "--exhaustive", description = "Stream all 2^32 inputs of each selected 32-bit-source pair, "
            + "compared with the reference on the fly (needs --pair).")
    boolean exhaustive;

    @Option(names = "--shard", paramLabel = "K/N", defaultValue = "1/1",
            description = "With --exhaustive: run the K-th of N equal input ranges (default: ${DEFAULT-VALUE}); auto reads "
                    + "K and N from a job array's variables (Slurm SLURM_ARRAY_TASK_ID/COUNT, GitLab CI_NODE_INDEX/TOTAL; "
                    + "Kubernetes JOB_COMPLETION_INDEX with auto/N).")
    String shard;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "1",
            description = "With --exhaustive: split each case's inputs over N instances of the adapter (N processes "
                    + "or device handles, each on its own thread), judged as one case (default: ${DEFAULT-VALUE}). "
                    + "The reference's expected values use every core whatever N is.")
    int jobs;

    @Option(names = "--cache", paramLabel = "DIR", description = "With --exhaustive: keep digests of the expected values "
            + "here, so that a later run of the same reference, tables, decisions and case computes only what it must "
            + "(default: $CONVCERT_CACHE, else $XDG_CACHE_HOME/convcert, else ~/.cache/convcert; suite/ADAPTERS.md).")
    Path cache;

    @Option(names = "--no-cache", description = "With --exhaustive: compute every expected value, keep nothing.")
    boolean noCache;

    @Option(names = "--verify-cache", description = "With --exhaustive: compute every expected value and check each kept "
            + "digest against it (a contradiction is exit 4); digests found missing are kept.")
    boolean verifyCache;

    @Option(names = "--out", paramLabel = "DIR", description = "Report folder (default, in the working directory: "
            + "reports/<adapter kind>[-<folder>-<name> of the program, library or recording under test]).")
    Path out;

    @Option(names = "--waivers", paramLabel = "CSV", description = "Known deviations: case,reason,expires (ISO date).")
    Path waivers;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "" + CertificationRequest.TIMEOUT_MILLIS,
            description = "Per-batch timeout for the adapter (default: ${DEFAULT-VALUE}).")
    long timeoutMillis;

    @Option(names = "--first", paramLabel = "N", defaultValue = "" + CertificationRequest.FIRST,
            description = "Mismatches listed per failing case (default: ${DEFAULT-VALUE}).")
    int first;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        ClassLoader loader = Adapters.loader(adapterPath);
        if (listAdapters) {
            for (Adapters.Found f : Adapters.providers(loader)) {
                if (f.provider() != null) {
                    stdout.printf("%-10s %s%n", f.provider().name(), f.provider().description());
                } else {
                    stdout.println("(broken)   " + f.broken());
                }
            }
            return 0;
        }
        CertificationRequest request = request(loader);
        if (level == null && request.level() != null) {
            stdout.println("convcert: the committed golden set holds no case of profile " + request.reference().tables().profile()
                    + "; certifying its ci set, generated into " + WorkingDirectory.relative(request.out().resolve("vectors-ci"))
                    + " (--level ci; --vectors DIR for a set of your own)");
        }
        Certification certification = new Certification(request, stdout, spec.commandLine().getErr());
        return plan ? certification.plan() : certification.run();
    }

    private CertificationRequest request(ClassLoader loader) {
        if (timeoutMillis <= 0) {
            throw new UsageException("--timeout-ms must be a positive number of milliseconds, got " + timeoutMillis);
        }
        if (first < 0) {
            throw new UsageException("--first must be 0 or more, got " + first);
        }
        Reference reference = profile.reference();
        List<Conversion> selected = reference.pairs(pairs);
        if (exhaustive && selected.isEmpty()) {
            throw new UsageException("--exhaustive needs --pair (each selected pair streams 2^32 inputs per case)");
        }
        for (Conversion c : exhaustive ? selected : List.<Conversion>of()) {
            if (c.from().width() != 32) {
                throw new UsageException("--exhaustive streams 2^32 inputs: " + c.pairName() + " has a " + c.from().width()
                        + "-bit source (its vectors are exhaustive at --level full already)");
            }
        }
        int[] kn = shard();
        if (jobs < 1 || (jobs > 1 && !exhaustive)) {
            throw new UsageException(jobs < 1 ? "--jobs must be 1 or more, got " + jobs
                    : "--jobs splits the 2^32 inputs of --exhaustive cases; vector cases run on one adapter");
        }
        if ((cache != null || noCache || verifyCache) && !exhaustive) {
            throw new UsageException("--cache, --no-cache and --verify-cache keep the expected values of --exhaustive cases; "
                    + "vector cases carry theirs");
        }
        if (noCache && (cache != null || verifyCache)) {
            throw new UsageException("--no-cache keeps nothing: it takes neither --cache nor --verify-cache");
        }
        Path report = out != null ? out : Path.of("reports").resolve(defaultFolder(adapter)); // relative to the working directory
        return new CertificationRequest(reference, adapter, loader, vectors != null ? vectors : Home.vectors(),
                levelFor(reference.tables().profile()),
                selected, pairs, only, exhaustive, kn[0], kn[1], shard, jobs, report,
                waivers == null ? Waivers.none() : Waivers.read(waivers), timeoutMillis, first,
                exhaustive && !noCache ? new ExpectedCache.Settings(cache != null ? cache : KeptDigests.defaultFolder(),
                        verifyCache) : null);
    }

    /**
     * The default report folder's name: the adapter's kind, and for an implementation named by a file (a
     * process's program or script, a library, a recording) that file's folder and name, so two
     * implementations never share a folder: process-ml-dtypes-dut, native-build-libconv, replay-h200-recording.
     */
    static String defaultFolder(String spec) {
        String kind = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        Map<String, String> options = Adapters.options(spec.contains(":") ? spec.substring(spec.indexOf(':') + 1) : "");
        String named = switch (kind) {
            case "process" -> {
                List<String> words = List.of(options.getOrDefault("cmd", "").split("\\s+"));
                yield words.reversed().stream().filter(w -> !w.startsWith("-") && (w.contains("/") || w.matches(".+\\.[A-Za-z0-9]+")))
                        .findFirst().orElse(words.getFirst()); // the script or program file, else the program
            }
            case "native" -> options.get("lib");
            case "replay" -> options.get("dir");
            default -> null;
        };
        if (named == null || named.isBlank()) {
            return kind;
        }
        Path p = Path.of(named).toAbsolutePath().normalize();
        String name = p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
        String parent = p.getParent() == null || p.getParent().getFileName() == null ? "" : p.getParent().getFileName() + "-";
        return (kind + "-" + parent + name).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** --shard K/N (or auto, from a job array's variables) as {K, N}; shard becomes "K/N". */
    private int[] shard() {
        if (shard.equals("auto") || shard.startsWith("auto/")) {
            JobArray task = JobArray.resolve(shard, System.getenv());
            shard = task.shard() + "/" + task.shards();
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
        return new int[] {k, n};
    }

    /** --level, or ci where nothing else names vectors and the committed set holds no case of the profile. */
    private String levelFor(String profileName) {
        if (level != null || vectors != null || exhaustive) {
            return level;
        }
        try {
            Manifest committed = Manifest.readIn(Home.vectors());
            boolean held = committed != null && committed.cases().stream().anyMatch(e -> e.profile().equals(profileName));
            return held ? null : Level.CI.label();
        } catch (IOException e) {
            return null; // the vector store says what is wrong with the set when it opens it
        }
    }
}
