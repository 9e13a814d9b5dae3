package convcert.suite.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.Conversion;
import convcert.spec.SpecTables;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The plan of a run: the committed golden set's cases and every variant of their states, --pair and --only
 * narrowing it, an exhaustive state's variants run alike, and expected values recomputed (and said so) when
 * the vectors were made under other decisions.
 */
class PlannerTest {

    private static final Path HOME = Path.of(System.getProperty("convcert.home"));
    private static final SpecTables ASCEND = SpecTables.load(HOME.resolve("spec-tables/ascend-c"));
    private static final VectorStore GOLDEN = VectorStore.open(HOME.resolve("vectors"));

    /** A device that programs its saturation itself (no conversions are asked of it here). */
    private static final ConverterAdapter PROGRAMS_SATURATION = new ConverterAdapter() {
        @Override
        public List<Capability> capabilities() {
            return List.of();
        }

        @Override
        public void convert(CaseKey c, long[] inputs, long[] outputs, int count) {
            throw new UnsupportedOperationException();
        }
    };

    private static Map<String, List<Planned>> plan(Reference reference, List<Conversion> pairs, String only,
                                                   boolean exhaustive, Set<String> notes) {
        return plan(PROGRAMS_SATURATION, reference, pairs, only, exhaustive, notes);
    }

    private static Map<String, List<Planned>> plan(ConverterAdapter adapter, Reference reference, List<Conversion> pairs,
                                                   String only, boolean exhaustive, Set<String> notes) {
        RunConfig config = RunConfig.of(reference, "reference", adapter).vectors(exhaustive ? null : GOLDEN)
                .cases(pairs, only, exhaustive).today(LocalDate.of(2026, 1, 1)).build();
        return new Planner(config, notes).plan();
    }

    private static List<CaseKey> keys(Map<String, List<Planned>> plan) {
        return plan.values().stream().flatMap(List::stream).map(Planned::key).toList();
    }

    @Test
    void everyVariantOfEveryStoredCaseIsPlanned() {
        Reference reference = Reference.of(ASCEND);
        List<CaseKey> keys = keys(plan(reference, List.of(), null, false, new LinkedHashSet<>()));
        long variants = GOLDEN.cases().stream().filter(e -> e.profile().equals("ascend-c"))
                .mapToLong(e -> VectorStore.variants(e).size()).sum();
        assertEquals(variants, keys.size(), "one planned case per variant of each manifest entry");
        assertEquals(keys.size(), Set.copyOf(keys).size(), "no case planned twice");
        ConverterAdapter told = Adapters.create("reference", new SuiteContext(HOME, HOME.resolve("vectors"), 10_000, reference));
        List<CaseKey> primaries = keys(plan(told, reference, List.of(), null, false, new LinkedHashSet<>()));
        assertEquals(GOLDEN.cases().size(), primaries.size(), "an adapter told the effective state runs one variant each");
        assertTrue(primaries.stream().allMatch(k -> k.variant().isEmpty()), "the primary variants");
    }

    @Test
    void aPairAndANameNarrowThePlan() {
        Reference reference = Reference.of(ASCEND);
        Conversion floatToHalf = reference.conversion("float", "half");
        Map<String, List<Planned>> byPair = plan(reference, List.of(floatToHalf), null, false, new LinkedHashSet<>());
        assertEquals(Set.of("float->half"), byPair.keySet());
        long stored = GOLDEN.cases().stream().filter(e -> e.from().equals("float") && e.to().equals("half"))
                .mapToLong(e -> VectorStore.variants(e).size()).sum();
        assertEquals(stored, keys(byPair).size());
        List<CaseKey> named = keys(plan(reference, List.of(), "float->half/rz-*", false, new LinkedHashSet<>()));
        assertTrue(!named.isEmpty() && named.stream().allMatch(k -> k.name().startsWith("float->half/rz-")), named.toString());
    }

    @Test
    void anExhaustiveStatesVariantsRunAlike() {
        Reference reference = Reference.of(ASCEND);
        List<Planned> cases = plan(reference, List.of(reference.conversion("float", "hifloat8")), null, true,
                new LinkedHashSet<>()).get("float->hifloat8");
        for (Planned p : cases) {
            Planned.Values v = (Planned.Values) p;
            long sameState = cases.stream().filter(o -> o.key().nameInPair().split(" ")[0]
                    .equals(v.key().nameInPair().split(" ")[0])).count();
            assertEquals(sameState > 1, v.alike() != null, v.key().name());
            if (v.alike() != null) {
                assertEquals(sameState, v.alike().keys().size(), v.key().name());
            }
        }
        assertTrue(cases.stream().anyMatch(p -> ((Planned.Values) p).alike() != null), "hifloat8 has states with variants");
    }

    @Test
    void vectorsMadeUnderOtherDecisionsAreRecomputedAndTheNotesSaySo() {
        Set<String> notes = new LinkedHashSet<>();
        Reference exact = new Reference(ASCEND, Semantics.of(ASCEND, Map.of("nan-comparison", "exact")));
        plan(exact, List.of(exact.conversion("float", "half")), null, false, notes);
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("expected values recomputed by the reference")
                && n.contains("nan-comparison=any") && n.contains("nan-comparison=exact")), notes.toString());
        Set<String> none = new LinkedHashSet<>();
        plan(Reference.of(ASCEND), List.of(), null, false, none);
        assertEquals(Set.of(), none, "the committed set was made by these tables and decisions");
    }
}
