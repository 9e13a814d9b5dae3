package convcert.suite.runner;

import convcert.families.CaseKeys;
import convcert.opencl.OpenClReference;
import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClVectors;
import convcert.reference.BlockConverter;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spi.CaseKey;
import convcert.spi.MemoryCase;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Plans a run's cases, grouped by pair in a stable order: every (rounding, saturation state) of the
 * selected pairs over all 2^32 inputs for --exhaustive, split into --jobs parts; otherwise each case of
 * the vector folder (one per variant for adapters that program saturation), the block-scaled formats'
 * cases, and the OpenCL memory cases the reference makes. Expected values are recomputed from the
 * stored inputs when the vectors were made with other tables or decisions (the notes say so).
 */
final class Planner {

    private final RunConfig config;
    private final Reference reference;
    private final Set<String> notes;

    /** notes: the run's notes, where recomputed expectations are recorded. */
    Planner(RunConfig config, Set<String> notes) {
        this.config = config;
        this.reference = config.reference();
        this.notes = notes;
    }

    /** The planned cases by pair; --only keeps those whose name matches. Exhaustive variants of a state kept together run alike. */
    Map<String, List<Planned>> plan() {
        Map<String, List<Planned>> all = config.exhaustive() ? exhaustive() : fromVectors();
        Map<String, List<Planned>> kept = new LinkedHashMap<>();
        all.forEach((pair, cases) -> {
            List<Planned> matching = cases.stream().filter(p -> config.only() == null || p.key().nameMatches(config.only()))
                    .toList();
            if (!matching.isEmpty()) {
                kept.put(pair, config.exhaustive() ? alike(matching) : matching);
            }
        });
        return kept;
    }

    /**
     * Exhaustive cases that are variants of one state (the same reference semantics and range, their keys
     * differing only in form and CTRL) become one Alike group, run once in lockstep: their 2^32 expected
     * values are computed once, not once per variant.
     */
    private static List<Planned> alike(List<Planned> cases) {
        Map<String, List<Planned.Values>> states = new LinkedHashMap<>();
        for (Planned p : cases) {
            if (p instanceof Planned.Values v) {
                states.computeIfAbsent(v.key().stateName(), x -> new ArrayList<>()).add(v);
            }
        }
        Map<String, Planned.Alike> groups = new LinkedHashMap<>();
        states.forEach((state, variants) -> groups.put(state, new Planned.Alike(variants.stream().map(Planned.Values::key)
                .toList(), variants.stream().map(Planned.Values::reference).toList())));
        List<Planned> grouped = new ArrayList<>();
        for (Planned p : cases) {
            if (p instanceof Planned.Values v && states.get(v.key().stateName()).size() > 1) {
                List<Planned.Values> variants = states.get(v.key().stateName());
                grouped.add(new Planned.Values(v.key(), v.count(), v.reference(), v.whole(), variants.getFirst().parts(),
                        groups.get(v.key().stateName())));
            } else {
                grouped.add(p);
            }
        }
        return grouped;
    }

    private Map<String, List<Planned>> exhaustive() {
        Map<String, List<Planned>> plan = new LinkedHashMap<>();
        for (Conversion c : config.pairs()) { // 32-bit sources (certify checks)
            long size = (1L << 32) / config.shards();
            long first = size * (config.shard() - 1);
            long end = config.shard() == config.shards() ? 1L << 32 : first + size;
            // Operands with a lane (a value and its random bits or scale) are too many to enumerate: vectors only.
            for (Rounding mode : c.modes().stream().filter(m -> c.lane(m) == null).sorted().toList()) {
                for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                    for (int i = 0; i < variantsRun(variants.size()); i++) {
                        Case state = variants.get(i);
                        Converter converter = reference.converter(state);
                        CaseKey key = CaseKeys.of(reference, state, i == 0 ? "" : reference.names().variantLabel(state));
                        plan.computeIfAbsent(c.pairName(), k -> new ArrayList<>()).add(new Planned.Values(key, end - first,
                                converter, () -> Batches.range(first, end, converter), parts(first, end, converter)));
                    }
                }
            }
        }
        return plan;
    }

    /** An exhaustive case's range in --jobs equal parts (one part when the adapter's outputs are the expected values). */
    private List<Supplier<Batches>> parts(long first, long end, Converter converter) {
        int jobs = config.outputsAreExpected() ? 1 : config.jobs();
        List<Supplier<Batches>> parts = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            long from = first + (end - first) * j / jobs;
            long to = first + (end - first) * (j + 1) / jobs;
            parts.add(() -> Batches.range(from, to, converter, jobs == 1)); // --jobs parts fill the cores themselves
        }
        return parts;
    }

    private Map<String, List<Planned>> fromVectors() {
        Map<String, List<Planned>> plan = new LinkedHashMap<>();
        VectorStore store = config.vectors();
        for (Manifest.Entry e : store.cases()) {
            if (!e.profile().equals(reference.tables().profile())) {
                continue;
            }
            switch (e.kind()) {
                case CONVERSION -> conversions(store, e, plan);
                case BLOCK, TENSOR -> {
                    if (config.pairs().isEmpty()) { // --pair selects conversions
                        Planned.Blocks b = blocks(store, e);
                        plan.computeIfAbsent(b.key().pair(), k -> new ArrayList<>()).add(b);
                    }
                }
                case MEMORY -> { } // planned from the reference (memoryCases)
            }
        }
        memoryCases(plan);
        return plan;
    }

    /** A conversion case of the vector folder, one planned case per variant run (a refusal where the tables select another state). */
    private void conversions(VectorStore store, Manifest.Entry e, Map<String, List<Planned>> plan) {
        Conversion c = reference.conversion(e.from(), e.to());
        if (!config.pairs().isEmpty() && !config.pairs().contains(c)) {
            return;
        }
        boolean stored = madeBySameReference(e);
        List<Planned> cases = plan.computeIfAbsent(c.pairName(), k -> new ArrayList<>());
        for (int i = 0; i < variantsRun(VectorStore.variants(e).size()); i++) {
            CaseKey key = VectorStore.key(e, i);
            Case state = reference.resolve(key);
            Converter converter = reference.converter(state);
            if (stored && !state.stateLabel().equals(e.state())) {
                cases.add(new Planned.Refused(key, e.count(), "the vectors say form " + key.form() + " with CTRL "
                        + key.ctrlText() + " selects " + e.state() + ", the tables say " + state.stateLabel()));
                continue;
            }
            Supplier<Batches> batches = stored
                    ? () -> Batches.of(store.readOperands(e, converter), store.read(e, false, c.to().width()))
                    : () -> Batches.recomputed(store.readOperands(e, converter), converter);
            cases.add(new Planned.Values(key, e.count(), converter, batches, List.of(batches)));
        }
    }

    /** A case of a block-scaled format from its vector files; in the matrix the pair is FROM->TO, the state "block". */
    private Planned.Blocks blocks(VectorStore store, Manifest.Entry e) {
        BlockConverter c = BlockVectorFiles.converter(reference, e.from(), e.to(), e.rounding());
        boolean stored = madeBySameReference(e);
        return new Planned.Blocks(CaseKeys.ofBlock(reference.tables().profile(), c), e.count(), c, () -> {
            long[] inputs = store.readBlocks(e, true, c);
            if (stored) {
                return new long[][] {inputs, store.readBlocks(e, false, c)};
            }
            long[] expected = new long[e.count() * c.outputsPerBlock()];
            c.apply(inputs, 0, expected, 0, e.count());
            return new long[][] {inputs, expected};
        });
    }

    /**
     * A profile with OpenCL memory tables (spec-tables/opencl/vector-functions.csv) adds its memory
     * and as_type cases, their vectors made by the reference on the fly. In the matrix the pair is
     * "VALUE TYPE->FUNCTION" and the column the vector width.
     */
    private void memoryCases(Map<String, List<Planned>> plan) {
        OpenClTables tables = OpenClTables.attachedTo(reference.tables());
        if (tables == null || !config.pairs().isEmpty()) { // --pair selects conversions
            return;
        }
        OpenClVectors generator = new OpenClVectors(new OpenClReference(tables, reference), reference, Level.CI, 1);
        for (MemoryCase c : generator.cases()) {
            CaseKey key = CaseKeys.ofMemory(reference.tables().profile(), c);
            plan.computeIfAbsent(key.pair(), k -> new ArrayList<>()).add(new Planned.Memory(key, c, () -> generator.vectors(c)));
        }
    }

    /**
     * Whether a vector case's expected values come from this run's tables and decisions. If not, the
     * stored inputs are kept and the expected values recomputed, so the report never pairs one
     * reading of the spec with another's results.
     */
    private boolean madeBySameReference(Manifest.Entry e) {
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

    /** How many variants of a state run: all for an adapter that programs saturation, else the primary. */
    private int variantsRun(int variants) {
        return config.adapter().programsSaturation() ? variants : Math.min(1, variants);
    }
}
