package convcert.suite.runner;

import convcert.common.Progress;
import convcert.common.UsageException;
import convcert.families.CaseKeys;
import convcert.spi.AdapterException;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.model.CaseResult;
import convcert.suite.model.LateOutput;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One certification run: the adapter, the cases (Planner), waivers, and the results collected as the
 * cases run. Which adapter it runs it does not know: only the flag outputsAreExpected of its
 * configuration. The JUnit engine reaches it through the launcher session (convcert.suite.junit).
 */
public final class SuiteRun implements AutoCloseable {

    /** Where a launcher session keeps its run (the key is the class): see junit.SuiteRunResolver. */
    public static final String NAMESPACE = "convcert";

    /** Makes another instance of the run's adapter (same provider, same options). */
    public interface AdapterFactory {
        ConverterAdapter create() throws AdapterException;
    }

    /** Cases from this size on get a progress bar. */
    private static final long LONG_CASE = 1 << 22;

    private final RunConfig config;
    private final List<Capability> capabilities;
    private final List<String> unmatched;
    private final Set<String> notes = Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
    /** Output an implementation sent after a case's answers (found when the next began), by that case's name. */
    private final Map<String, String> late = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The outcomes of an Alike group's cases run before their turn (with the first of the group). */
    private final Map<CaseKey, ValueRunner.Outcome> ranAlike = new ConcurrentHashMap<>();
    private volatile List<CaseKey> planned = List.of();
    private Map<String, List<Planned>> plan;
    private final AdapterInstance own;
    private final Parts parts;
    private final BlockRunner blocks;
    private final MemoryRunner memory;
    private final Diagnoser diagnoser;
    private final ExpectedCache cache;

    public SuiteRun(RunConfig config) {
        this.config = config;
        this.capabilities = config.adapter().capabilities().stream().map(this::canonical).toList();
        List<CaseKey> space = profileCases();
        this.unmatched = capabilities.stream().filter(c -> space.stream().noneMatch(c::matches))
                .map(Capability::toString).toList();
        String draft = config.reference().tables().draftNotice();
        if (draft != null) { // first: a reader must see it before any number
            notes.add(draft);
        }
        if (!config.waivers().isEmpty()) {
            notes.add("waivers judged on " + config.today() + " (UTC): a waiver is live through its expiry date");
        }
        if (config.outputsAreExpected()) {
            notes.add("the adapter is this run's reference (same tables and decisions): where expected values are "
                    + "computed now (exhaustive, recomputed), its outputs are those values, computed once");
        } else if (config.jobs() > 1) {
            notes.add("each exhaustive case's inputs were split over " + config.jobs() + " instances of the adapter "
                    + "(--jobs " + config.jobs() + "), consecutive ranges in order, judged as one case");
        }
        Comparison comparison = Comparison.of(config.reference());
        this.own = new AdapterInstance(config.adapter(), capabilities, config.timeoutMillis(), config.moreAdapters(),
                notes::add, this::chargeLate);
        boolean flagsLane = config.reference().tables().hasFlags();
        if (flagsLane && !ValueRunner.certifiesFlags(true, config.adapter())) {
            notes.add("the profile's conversions raise exception flags (flags.csv); the adapter reports none "
                    + "(FlagOperations, or FLAGS in the process handshake), so its results were certified and its flags were not");
        }
        this.cache = config.cache() == null ? null : new ExpectedCache(config.cache(), config.reference(), notes::add);
        this.parts = new Parts(own, config, new ValueRunner(comparison, config.firstMismatches(), config.outputsAreExpected(),
                flagsLane, cache), notes::add);
        this.blocks = new BlockRunner(comparison, config.firstMismatches());
        this.memory = new MemoryRunner(comparison, config.firstMismatches());
        this.diagnoser = Diagnoser.of(config.reference(), comparison);
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
        return CaseKeys.ofProfile(config.reference());
    }

    /** The adapter's capability lines, aliases resolved. */
    public List<String> declared() {
        return capabilities.stream().map(Capability::toString).toList();
    }

    /** Declared capability lines that match no case of the profile. */
    public List<String> unmatched() {
        return unmatched;
    }

    /** What the expected-value cache gave and kept in this run, a console line (the reports stay as without it); or null. */
    public String cacheSummary() {
        return cache == null ? null : cache.summary();
    }

    /** What a reader of the report must know about how the expected values were obtained. */
    public List<String> notes() {
        synchronized (notes) {
            return List.copyOf(notes);
        }
    }

    public RunConfig config() {
        return config;
    }

    public List<CaseResult> results() {
        synchronized (results) {
            return results.stream().map(this::amended).toList();
        }
    }

    /** Output that followed a case's answers: that case's failure, if it ran; false if no case of that name did. */
    private boolean chargeLate(LateOutput e) {
        boolean ran;
        synchronized (results) {
            ran = results.stream().anyMatch(r -> r.key().name().equals(e.caseName()));
        }
        ran |= ranAlike.keySet().stream().anyMatch(k -> k.name().equals(e.caseName()));
        if (ran) {
            late.put(e.caseName(), e.getMessage());
        }
        return ran;
    }

    /** A result, an adapter failure if output followed its answers (found when the next case began). */
    private CaseResult amended(CaseResult r) {
        String message = late.get(r.key().name());
        return message == null || r.status() == Status.ADAPTER_ERROR ? r
                : new CaseResult(r.key(), Status.ADAPTER_ERROR, r.vectors(), r.mismatches(), r.firstMismatches(), r.rules(),
                        r.kinds(), message, r.millis());
    }

    /** The keys of the cases planned (empty before plan()): an interrupt reports the unfinished ones. */
    public List<CaseKey> planned() {
        return planned;
    }

    /**
     * The planned cases grouped by pair, in a stable order; --only filters them by name. Planned once: the
     * waiver check, the JUnit tests and an interrupt's report all see the same cases.
     */
    public synchronized Map<String, List<Planned>> plan() {
        if (plan == null) {
            plan = makePlan();
        }
        return plan;
    }

    private Map<String, List<Planned>> makePlan() {
        Map<String, List<Planned>> kept = new Planner(config, notes).plan();
        planned = kept.values().stream().flatMap(List::stream).map(Planned::key).toList();
        String other = config.vectors() == null ? null : config.vectors().otherProfiles(config.reference().tables().profile());
        if (other != null) {
            notes.add(other);
        }
        if (planned.isEmpty() && config.only() != null) {
            notes.add("--only '" + config.only() + "' selects no case of profile " + config.reference().tables().profile());
        }
        return kept;
    }

    /** Whether the adapter declares the case (a capability line matches it). */
    public boolean applies(CaseKey key) {
        return own.applies(key);
    }

    /** Runs one planned case, judges it by the waivers and records it. */
    public CaseResult execute(Planned p) {
        long count = p instanceof Planned.Values v && v.alike() != null && !ranAlike.containsKey(p.key())
                ? p.count() * v.alike().keys().size() : p.count(); // an Alike group's first case runs them all
        Progress progress = config.progress() != null && count >= LONG_CASE
                ? Progress.ofVectors(config.progress(), config.terminal(), p.key().name(), count) : null;
        CaseResult r;
        try {
            r = switch (p) {
                case Planned.Values v -> values(v, progress);
                case Planned.Blocks b -> blocks(b);
                case Planned.Memory m -> memory.run(own, m.key(), m.operation(), m.vectors().get());
                case Planned.Refused x -> CaseResult.without(x.key(), Status.ERROR, x.why());
            };
        } catch (RuntimeException e) { // unreadable vectors, or a bug of ours: the case fails on its own
            r = CaseResult.without(p.key(), Status.ERROR, "the case could not run: "
                    + (e instanceof UsageException ? e.getMessage() : e.toString()));
        } catch (OutOfMemoryError e) { // an internal error of the case, never an interrupt
            r = CaseResult.without(p.key(), Status.ERROR, "the case could not run: out of memory (" + e.getMessage()
                    + "); give convcert more memory (JAVA_TOOL_OPTIONS=-Xmx...) or split the case");
        }
        if (progress != null) {
            progress.finish();
        }
        r = amended(waived(r));
        results.add(r);
        return r;
    }

    /**
     * A conversion case, in its parts; a failing one is diagnosed from its wrong answers. The cases of an
     * Alike group run together when the first of them comes, the others' outcomes kept for their turn.
     */
    private CaseResult values(Planned.Values v, Progress progress) {
        ValueRunner.Outcome o = v.alike() == null ? parts.run(v.key(), v.reference(), v.parts(), progress)
                : ranAlike.remove(v.key());
        if (o == null) {
            List<ValueRunner.Outcome> all = parts.runAlike(v.alike().keys(), v.alike().references(), v.parts(), progress);
            for (int i = 0; i < all.size(); i++) {
                ranAlike.put(v.alike().keys().get(i), all.get(i));
            }
            o = ranAlike.remove(v.key());
        }
        if (o.result().status() != Status.FAIL) {
            return o.result();
        }
        // A map of golden vectors would picture where the vectors are, not where the defect is.
        CaseResult r = config.exhaustive() ? o.result() : o.result().withoutInputMap();
        long start = System.nanoTime();
        if (o.wrong().isEmpty() && !o.wrongFlags().isEmpty()) { // right results, wrong flags
            return r.diagnosed(timed(diagnoser == null ? null : diagnoser.explainFlags(v.reference(), v.whole(), o.wrongFlags(),
                    o.result().mismatches(), o.result().vectors()), start), Diagnoser.binades(v.reference().source(), o.wrongFlags()));
        }
        return r.diagnosed(timed(diagnoser == null || o.log() == null ? null : diagnoser.explain(v.reference(), v.whole(),
                o.wrong(), o.log(), o.result().vectors()), start), Diagnoser.binades(v.reference().source(), o.wrong()));
    }

    /** A block case; a failing one is diagnosed by the other readings of its recipe's decisions. */
    private CaseResult blocks(Planned.Blocks b) {
        long[][] vectors = b.vectors().get();
        BlockRunner.Outcome o = blocks.run(own, b.key(), b.reference(), vectors[0], vectors[1], (int) b.count());
        if (o.result().status() != Status.FAIL || diagnoser == null) {
            return o.result();
        }
        long start = System.nanoTime();
        return o.result().diagnosed(timed(diagnoser.explainBlocks(b.reference(), vectors[0], vectors[1], (int) b.count(),
                o.wrong(), o.result().mismatches()), start), Map.of());
    }

    /** A diagnosis with the time it took since start. */
    private static convcert.suite.model.Diagnosis timed(convcert.suite.model.Diagnosis d, long start) {
        return d == null ? null : d.took(ValueRunner.millis(start));
    }

    /** A failing case with a live waiver is WAIVED; with an expired one it stays FAIL, saying so. */
    private CaseResult waived(CaseResult r) {
        if (r.status() != Status.FAIL) {
            return r;
        }
        Waivers.Waiver w = config.waivers().find(r.key());
        if (w != null && !w.expires().isBefore(config.today())) {
            return r.judged(Status.WAIVED, r.mismatches() + " mismatches waived until " + w.expires() + ": " + w.reason()
                    + " (" + w.location() + ")", w.describe());
        }
        if (w != null) {
            return r.judged(Status.FAIL, "waiver expired on " + w.expires() + ": " + w.reason() + " (" + w.location() + ")",
                    w.describe());
        }
        return r;
    }

    /** Stops the adapter once, whoever asks first (the run's end, an interrupt, the launcher session's end). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            own.close();
            parts.close();
        }
    }
}
