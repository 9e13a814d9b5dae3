package convcert.suite.runner;

import convcert.opencl.OpenClReference;
import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClVectors;
import convcert.reference.BlockConverter;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.reference.UsageException;
import convcert.spec.Conversion;
import convcert.spec.CtrlState;
import convcert.spec.Rounding;
import convcert.spi.AdapterException;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.MemoryCase;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.Manifest;
import convcert.vectors.Sha256;
import io.qameta.allure.Allure;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.opentest4j.TestAbortedException;

/**
 * One certification run: the adapter, the cases (from a vector folder, or every 32-bit input for
 * --exhaustive), waivers and the collected results. `convcert certify` puts it in its launcher
 * session's store, where ConformanceTests receives it (SuiteRunResolver); under Surefire it comes
 * from system properties (-Dconvcert.adapter=NAME[:options], -Dconvcert.vectors=DIR,
 * -Dconvcert.pairs=float:half,...).
 */
public final class SuiteRun implements AutoCloseable {

    /** Where a launcher session keeps its run (the key is the class): see SuiteRunResolver. */
    public static final String NAMESPACE = "convcert";

    /**
     * What to run. shard is 1-based; shards 1 means all. jobs: how many instances of the adapter an
     * exhaustive case's range is split over (more made by moreAdapters when first needed).
     */
    public record Config(Reference reference, String adapterSpec, ConverterAdapter adapter, VectorStore vectors,
                         List<Conversion> pairs, String only, boolean exhaustive, int shard, int shards, Waivers waivers,
                         long timeoutMillis, int firstMismatches, LocalDate today, PrintWriter progress, boolean terminal,
                         int jobs, AdapterFactory moreAdapters) {
    }

    /** Makes another instance of the run's adapter (same provider, same options). */
    public interface AdapterFactory {
        ConverterAdapter create() throws AdapterException;
    }

    /** A case ready to run: its key, its size, and how to run it (a conversion or an OpenCL memory case). */
    public record Planned(CaseKey key, long count, Execution execution) {
    }

    /** Runs a planned case with the run's CaseRunner; progress is null for short cases. */
    public interface Execution {
        CaseResult run(CaseRunner runner, CaseRunner.ProgressListener progress);
    }

    private Planned conversion(CaseKey key, Converter converter, Supplier<CaseRunner.Batches> batches, long count) {
        return conversion(key, converter, batches, List.of(batches), count);
    }

    /** A case run in parts (one per runner, in order of their inputs), judged as one; batches reads it whole. */
    private Planned conversion(CaseKey key, Converter converter, Supplier<CaseRunner.Batches> batches,
                               List<Supplier<CaseRunner.Batches>> parts, long count) {
        return new Planned(key, count, (runner, progress) -> {
            List<CaseRunner> runners;
            try {
                runners = runners(parts.size());
            } catch (AdapterException e) {
                return CaseResult.without(key, Status.ADAPTER_ERROR, "could not start another instance of the adapter "
                        + "for --jobs " + parts.size() + ": " + e.getMessage());
            }
            CaseResult r = runParts(key, converter, parts, runners, progress);
            if (r.status() != Status.FAIL) {
                return r;
            }
            Map<Long, Long> wrong = new LinkedHashMap<>();
            for (CaseRunner part : runners) {
                part.lastMismatches().entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .limit(CaseRunner.DIAGNOSED - wrong.size()).forEach(e -> wrong.put(e.getKey(), e.getValue()));
            }
            if (diagnosis == null) {
                return r.diagnosed(null, Diagnosis.binades(converter.source(), wrong));
            }
            return r.diagnosed(diagnosis.explain(converter, batches, wrong), Diagnosis.binades(converter.source(), wrong));
        });
    }

    /** An exhaustive case's range in --jobs equal parts (one part for the reference itself: it is not run). */
    private List<Supplier<CaseRunner.Batches>> parts(long first, long end, Converter converter) {
        int jobs = runner.adapterIsReference() ? 1 : config.jobs();
        List<Supplier<CaseRunner.Batches>> parts = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            long from = first + (end - first) * j / jobs;
            long to = first + (end - first) * (j + 1) / jobs;
            parts.add(() -> CaseRunner.range(from, to, converter));
        }
        return parts;
    }

    /** The runners for a case in n parts: the run's own, then one per extra adapter instance, made when first needed. */
    private List<CaseRunner> runners(int n) throws AdapterException {
        synchronized (helpers) {
            while (helpers.size() < n - 1) {
                ConverterAdapter another = config.moreAdapters().create();
                helpers.add(new CaseRunner(another, capabilities, config.timeoutMillis(), config.firstMismatches(), false));
                helperAdapters.add(another);
            }
            List<CaseRunner> all = new ArrayList<>(List.of(runner));
            all.addAll(helpers.subList(0, n - 1));
            return all;
        }
    }

    /**
     * Runs the parts, each on its runner and thread, and merges their results in part order, so the
     * report is the one a single adapter would give: counts summed, the first mismatches those of the
     * earliest inputs, the first adapter failure named with its part.
     */
    private CaseResult runParts(CaseKey key, Converter converter, List<Supplier<CaseRunner.Batches>> parts,
                                List<CaseRunner> runners, CaseRunner.ProgressListener progress) {
        if (parts.size() == 1) {
            return runner.run(key, converter, parts.getFirst().get(), progress);
        }
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parts.size(), r -> {
            Thread t = new Thread(r, "convcert-part");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<CaseResult>> running = new ArrayList<>();
            for (int j = 0; j < parts.size(); j++) {
                CaseRunner part = runners.get(j);
                Supplier<CaseRunner.Batches> batches = parts.get(j);
                running.add(pool.submit(() -> part.run(key, converter, batches.get(), progress)));
            }
            List<CaseResult> results = new ArrayList<>();
            for (Future<CaseResult> f : running) {
                results.add(f.get());
            }
            return CaseResult.merged(key, results, config.firstMismatches(), (System.nanoTime() - start) / 1_000_000);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CaseResult.without(key, Status.NOT_RUN, "interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    private final Config config;
    private final CaseRunner runner;
    private final List<Capability> capabilities;
    private final List<String> unmatched;
    private final Set<String> notes = Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile List<CaseKey> planned = List.of();
    private final Diagnosis diagnosis;
    /** Runners and adapters beyond the first, for --jobs. */
    private final List<CaseRunner> helpers = new ArrayList<>();
    private final List<ConverterAdapter> helperAdapters = new ArrayList<>();

    public SuiteRun(Config config) {
        this.config = config;
        this.capabilities = config.adapter().capabilities().stream().map(this::canonical).toList();
        List<CaseKey> space = profileCases();
        this.unmatched = capabilities.stream().filter(c -> space.stream().noneMatch(c::matches))
                .map(Capability::toString).toList();
        boolean self = config.adapter() instanceof convcert.suite.adapters.ReferenceAdapter r
                && r.reference() == config.reference();
        if (self) {
            notes.add("the adapter is this run's reference (same tables and decisions): where expected values are "
                    + "computed now (exhaustive, recomputed), its outputs are those values, computed once");
        }
        this.runner = new CaseRunner(config.adapter(), capabilities, config.timeoutMillis(), config.firstMismatches(), self);
        if (config.jobs() > 1 && !self) {
            notes.add("each exhaustive case's inputs were split over " + config.jobs() + " instances of the adapter "
                    + "(--jobs " + config.jobs() + "), consecutive ranges in order, judged as one case");
        }
        this.diagnosis = Diagnosis.of(config.reference(),
                config.reference().semantics().nanComparison() == convcert.reference.Semantics.NanComparison.ANY);
    }

    /** A capability with its types named as the profile names them (fp16 -> half), as everywhere else. */
    private Capability canonical(Capability c) {
        return new Capability(canonicalType(c.from()), canonicalType(c.to()), c.rounding(), c.state());
    }

    private String canonicalType(String name) {
        if (name.equals("*")) {
            return name;
        }
        var format = config.reference().tables().findFormat(name);
        var block = config.reference().tables().findBlock(name);
        return format != null ? format.name() : block != null ? block.name() : name;
    }

    /** Every conversion case the profile defines, whatever the selection: capabilities and waivers must name one. */
    public List<CaseKey> profileCases() {
        Reference reference = config.reference();
        List<CaseKey> keys = new ArrayList<>();
        for (Conversion c : reference.tables().conversions()) {
            for (Rounding mode : c.modes()) {
                for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                    for (int i = 0; i < variants.size(); i++) {
                        keys.add(key(variants.get(i), i == 0 ? "" : reference.variantLabel(variants.get(i))));
                    }
                }
            }
        }
        for (BlockConverter c : BlockVectorFiles.cases(reference)) {
            keys.add(blockKey(reference.tables().profile(), c));
        }
        return keys;
    }

    /** The adapter's capability lines, aliases resolved. */
    public List<String> declared() {
        return capabilities.stream().map(Capability::toString).toList();
    }

    /** Declared capability lines that match no case of the profile. */
    public List<String> unmatched() {
        return unmatched;
    }

    /** What a reader of the report must know about how the expected values were obtained. */
    public List<String> notes() {
        synchronized (notes) {
            return List.copyOf(notes);
        }
    }

    /** A run from system properties, for the suite under Surefire (ConformanceSuiteTest). */
    static SuiteRun fromSystemProperties() {
        Path home = Path.of(System.getProperty("convcert.home", "."));
        Reference reference = Reference.of(convcert.spec.SpecTables.load(home.resolve("spec-tables/ascend-c")));
        String spec = System.getProperty("convcert.adapter", "reference");
        Path vectors = Path.of(System.getProperty("convcert.vectors", home.resolve("vectors").toString()));
        List<Conversion> pairs = new ArrayList<>();
        for (String p : System.getProperty("convcert.pairs", "").split(",")) {
            if (!p.isBlank()) {
                String[] parts = p.split(":", 2);
                pairs.add(reference.conversion(parts[0], parts[1]));
            }
        }
        ConverterAdapter adapter = Adapters.create(spec, new SuiteContext(home, vectors, 10_000, reference));
        return new SuiteRun(new Config(reference, spec, adapter, VectorStore.open(vectors), pairs, null, false, 1, 1,
                Waivers.none(), 10_000, 10, LocalDate.now(), null, false, 1, null));
    }

    public Config config() {
        return config;
    }

    public List<CaseResult> results() {
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    /** The keys of the cases planned (by the last call of plan()): an interrupt reports the unfinished ones. */
    public List<CaseKey> planned() {
        return planned;
    }

    /** The planned cases grouped by pair, in a stable order; --only filters them by name. */
    public Map<String, List<Planned>> plan() {
        Map<String, List<Planned>> kept = selected();
        planned = kept.values().stream().flatMap(List::stream).map(Planned::key).toList();
        return kept;
    }

    private Map<String, List<Planned>> selected() {
        Map<String, List<Planned>> all = allPlanned();
        if (config.only() == null) {
            return all;
        }
        Map<String, List<Planned>> kept = new LinkedHashMap<>();
        all.forEach((pair, cases) -> {
            List<Planned> matching = cases.stream().filter(p -> p.key().nameMatches(config.only())).toList();
            if (!matching.isEmpty()) {
                kept.put(pair, matching);
            }
        });
        return kept;
    }

    private Map<String, List<Planned>> allPlanned() {
        Reference reference = config.reference();
        Map<String, List<Planned>> plan = new LinkedHashMap<>();
        if (config.exhaustive()) {
            for (Conversion c : config.pairs()) {
                if (c.from().width() != 32) {
                    throw new UsageException("--exhaustive streams 2^32 inputs: " + c.pairName() + " has a "
                            + c.from().width() + "-bit source (its vectors are exhaustive at --level full already)");
                }
                long size = (1L << 32) / config.shards();
                long first = size * (config.shard() - 1);
                long end = config.shard() == config.shards() ? 1L << 32 : first + size;
                for (Rounding mode : c.modes().stream().sorted().toList()) {
                    for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                        for (int i = 0; i < variantsRun(variants.size()); i++) {
                            Case state = variants.get(i);
                            Converter converter = reference.converter(state);
                            plan.computeIfAbsent(c.pairName(), k -> new ArrayList<>()).add(conversion(
                                    key(state, i == 0 ? "" : reference.variantLabel(state)), converter,
                                    () -> CaseRunner.range(first, end, converter), parts(first, end, converter),
                                    end - first));
                        }
                    }
                }
            }
            return plan;
        }
        VectorStore store = config.vectors();
        for (Manifest.Entry e : store.cases()) {
            if (!e.profile().equals(reference.tables().profile()) || e.state().equals("memory")) {
                continue; // memory cases are planned from the reference (addMemoryCases)
            }
            if (VectorStore.isBlock(e)) {
                if (config.pairs().isEmpty()) { // --pair selects conversions
                    addBlockCase(plan, store, e);
                }
                continue;
            }
            Conversion c = reference.conversion(e.from(), e.to());
            if (!config.pairs().isEmpty() && !config.pairs().contains(c)) {
                continue;
            }
            boolean stored = madeBySameReference(e);
            for (int i = 0; i < variantsRun(VectorStore.variants(e).size()); i++) {
                CaseKey key = VectorStore.key(e, i);
                CtrlState ctrl = reference.tables().powerOnCtrl();
                for (var bit : key.ctrl().entrySet()) {
                    ctrl = ctrl.with(bit.getKey(), bit.getValue());
                }
                Case state = reference.resolve(c, Rounding.parse(e.rounding()), convcert.spec.Form.parse(key.form()), ctrl);
                Converter converter = reference.converter(state);
                List<Planned> cases = plan.computeIfAbsent(c.pairName(), k -> new ArrayList<>());
                if (stored && !Reference.stateLabel(state).equals(e.state())) {
                    String why = "the vectors say form " + key.form() + " with CTRL " + key.ctrlText() + " selects "
                            + e.state() + ", the tables say " + Reference.stateLabel(state);
                    cases.add(new Planned(key, e.count(), (runner, progress) -> CaseResult.without(key, Status.ERROR, why)));
                    continue;
                }
                Supplier<CaseRunner.Batches> batches = stored
                        ? () -> CaseRunner.of(store.read(e, true, c.from().width()), store.read(e, false, c.to().width()))
                        : () -> CaseRunner.recomputed(store.read(e, true, c.from().width()), converter);
                cases.add(conversion(key, converter, batches, e.count()));
            }
        }
        addMemoryCases(plan);
        return plan;
    }

    /** A case of a block-scaled format from its vector files; in the matrix the pair is FROM->TO, the state "block". */
    private void addBlockCase(Map<String, List<Planned>> plan, VectorStore store, Manifest.Entry e) {
        BlockConverter c = BlockVectorFiles.converter(config.reference(), e.from(), e.to(), e.rounding());
        CaseKey key = blockKey(config.reference().tables().profile(), c);
        boolean stored = madeBySameReference(e);
        boolean anyNaN = config.reference().semantics().nanComparison() == convcert.reference.Semantics.NanComparison.ANY;
        plan.computeIfAbsent(key.pair(), k -> new ArrayList<>()).add(new Planned(key, e.count(), (runner, progress) -> {
            long[] inputs = store.readBlocks(e, true, c);
            long[] expected;
            if (stored) {
                expected = store.readBlocks(e, false, c);
            } else {
                expected = new long[e.count() * c.outputsPerBlock()];
                c.apply(inputs, 0, expected, 0, e.count());
            }
            return runner.runBlocks(key, c, inputs, expected, e.count(), anyNaN);
        }));
    }

    public static CaseKey blockKey(String profile, BlockConverter c) {
        String[] pair = c.pairName().split("->");
        return new CaseKey(profile, pair[0], pair[1], c.mode().suffix(), BlockVectorFiles.STATE, "-", Map.of());
    }

    /**
     * Whether a vector case's expected values come from this run's tables and decisions. If not, the
     * stored inputs are kept and the expected values recomputed, so the report never pairs one
     * reading of the spec with another's results.
     */
    private boolean madeBySameReference(Manifest.Entry e) {
        Reference reference = config.reference();
        Map<String, String> chosen = reference.semantics().choices();
        if (!e.decisions().equals(chosen)) {
            notes.add("expected values recomputed by the reference: the vectors were generated with decisions "
                    + differences(e.decisions(), chosen) + ", this run uses " + differences(chosen, e.decisions()));
            return false;
        }
        if (!e.tables().equals(reference.tables().digest())) {
            notes.add("expected values recomputed by the reference: the vectors were generated from other spec tables "
                    + "(sha256 " + e.tables() + ")");
            return false;
        }
        return true;
    }

    private static String differences(Map<String, String> a, Map<String, String> b) {
        return a.entrySet().stream().filter(x -> !x.getValue().equals(b.get(x.getKey())))
                .map(x -> x.getKey() + "=" + x.getValue()).sorted().toList().toString();
    }

    /**
     * A profile with OpenCL memory tables (spec-tables/opencl/vector-functions.csv) adds its memory
     * and as_type cases, their vectors made by the reference on the fly. In the matrix the pair is
     * "VALUE TYPE->FUNCTION" and the column the vector width.
     */
    private void addMemoryCases(Map<String, List<Planned>> plan) {
        OpenClTables tables = OpenClTables.attachedTo(config.reference().tables());
        if (tables == null) {
            return;
        }
        OpenClReference ref = new OpenClReference(tables, config.reference());
        OpenClVectors generator = new OpenClVectors(ref, config.reference(),
                convcert.vectors.Level.CI, 1);
        for (MemoryCase c : generator.cases()) {
            CaseKey key = memoryKey(config.reference().tables().profile(), c);
            if (!config.pairs().isEmpty()) {
                continue; // --pair selects conversions
            }
            plan.computeIfAbsent(key.pair(), k -> new ArrayList<>()).add(new Planned(key, 0,
                    (runner, progress) -> runner.runMemory(key, c, generator.vectors(c), config.reference().semantics()
                            .nanComparison() == convcert.reference.Semantics.NanComparison.ANY)));
        }
    }

    public static CaseKey memoryKey(String profile, MemoryCase c) {
        String function = c.isAsType() ? "as_" + c.toType() : c.function() + (c.rounding().isEmpty() ? "" : "_" + c.rounding());
        String width = c.isAsType() && c.n() != c.toN() ? c.n() + "->" + c.toN() : "x" + c.n();
        return new CaseKey(profile, c.type(), function, width, "memory", "-", Map.of());
    }

    private CaseKey key(Case c, String variant) {
        return new CaseKey(config.reference().tables().profile(), c.conversion().from().name(), c.conversion().to().name(),
                c.rounding().suffix(), Reference.stateLabel(c), c.form().tableName(), c.ctrl().bits(), variant);
    }

    /** How many variants of a state run: all for an adapter that programs saturation, else the primary. */
    private int variantsRun(int variants) {
        return config.adapter().programsSaturation() ? variants : Math.min(1, variants);
    }

    /** Runs one planned case, records it, and ends the JUnit test by its status. */
    public void execute(Planned p) {
        // history and test-case ids from the case's name, not its position in the plan: a run with other
        // pairs selected still continues each case's history
        String id = p.key().profile() + "/" + p.key().name();
        String digest = Sha256.of(id.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Allure.getLifecycle().updateTestCase(t -> t.setHistoryId(digest).setTestCaseId(digest).setName(p.key().name()));
        Allure.epic(p.key().profile());
        Allure.feature(p.key().pair());
        Allure.story(p.key().rounding() + " " + p.key().state());
        Progress progress = config.progress() != null && p.count() >= (1 << 22)
                ? new Progress(config.progress(), config.terminal(), p.key().name(), p.count()) : null;
        CaseResult r;
        try {
            r = p.execution().run(runner, progress);
        } catch (RuntimeException e) { // unreadable vectors, or a bug of ours: the case fails on its own
            r = CaseResult.without(p.key(), Status.ERROR, "the case could not run: "
                    + (e instanceof UsageException ? e.getMessage() : e.toString()));
        }
        if (progress != null) {
            progress.finish();
        }
        String adapter = config.adapterSpec();
        if (r.status() == Status.FAIL) {
            Waivers.Waiver w = config.waivers().find(r.key());
            if (w != null && !w.expires().isBefore(config.today())) {
                r = r.judged(Status.WAIVED, r.mismatches() + " mismatches waived until " + w.expires() + ": " + w.reason()
                        + " (" + w.location() + ")", w.describe());
            } else if (w != null) {
                r = r.judged(Status.FAIL, "waiver expired on " + w.expires() + ": " + w.reason() + " (" + w.location() + ")",
                        w.describe());
            }
        }
        record(r);
        switch (r.status()) {
            case PASS -> { }
            case NOT_APPLICABLE -> throw new TestAbortedException("not applicable: " + adapter + " does not implement "
                    + r.key().name());
            case WAIVED -> {
                attach(r, adapter);
                throw new TestAbortedException("waived: " + r.message());
            }
            case FAIL -> {
                attach(r, adapter);
                throw new MismatchFailure(r, adapter);
            }
            case ADAPTER_ERROR, ERROR, NOT_RUN -> throw new AdapterFailure(r, adapter);
        }
    }

    private void record(CaseResult r) {
        results.add(r);
    }

    private static void attach(CaseResult r, String adapter) {
        Allure.addAttachment("mismatches", "text/plain", MismatchFailure.message(r, adapter), ".txt");
    }

    /** Stops the adapter once, whoever asks first (the run's end, an interrupt, the launcher session's end). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runner.close();
            config.adapter().close();
            synchronized (helpers) {
                helpers.forEach(CaseRunner::close);
                helperAdapters.forEach(ConverterAdapter::close);
            }
        }
    }

    /** A progress bar for long (exhaustive) cases. */
    static final class Progress implements CaseRunner.ProgressListener {
        private final PrintWriter out;
        private final boolean terminal;
        private final String name;
        private final long total;
        private final long start = System.nanoTime();
        private long done;
        private long lastDraw;

        Progress(PrintWriter out, boolean terminal, String name, long total) {
            this.out = out;
            this.terminal = terminal;
            this.name = name;
            this.total = total;
        }

        @Override
        public synchronized void batchDone(long vectors) { // parts of a case report from their own threads
            long before = done;
            done += vectors;
            long now = System.nanoTime();
            boolean tenth = 10 * done / total > 10 * before / total;
            if ((terminal && now - lastDraw > 250_000_000L) || (!terminal && tenth)) {
                lastDraw = now;
                double seconds = (now - start) / 1e9;
                int filled = (int) (30 * done / total);
                double eta = seconds * (total - done) / Math.max(1, done);
                out.printf("%s[%s%s] %3d%% %s %.0f M/s, %.0f s elapsed, about %.0f s to go%s", terminal ? "\r" : "",
                        "#".repeat(filled), ".".repeat(30 - filled), 100 * done / total, name, done / seconds / 1e6,
                        seconds, eta, terminal ? "" : "\n");
                out.flush();
            }
        }

        synchronized void finish() {
            if (terminal) {
                out.printf("\r%100s\r", "");
                out.flush();
            }
        }
    }
}
