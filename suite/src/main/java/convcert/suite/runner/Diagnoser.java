package convcert.suite.runner;

import convcert.common.Home;
import convcert.faults.Fault;
import convcert.faults.BlockFaults;
import convcert.faults.ElementFaults;
import convcert.faults.FaultCatalogue;
import convcert.faults.FaultModel;
import convcert.faults.Mechanism;
import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.suite.diagnosis.BlockParts;
import convcert.suite.diagnosis.Evidence;
import convcert.suite.diagnosis.MismatchLog;
import convcert.suite.diagnosis.Relation;
import convcert.suite.diagnosis.ValueDiagnosis;
import convcert.suite.model.Diagnosis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * What a failing case's implementation probably does wrong: every fault of the catalogue that applies
 * is tried as a hypothesis against the case's vectors. A fault that reproduces every wrong answer and
 * changes no right one explains the case; otherwise the best partial explanation is given. Runs only
 * for failing cases, so a passing run pays nothing.
 */
final class Diagnoser {

    /** Inputs of a very large case read for the passes of a flags diagnosis: the first this many. */
    private static final long PASS_SAMPLE = 1L << 20;

    private final Reference reference;
    private final FaultModel model;
    private final List<Fault> catalogue;
    private final Comparison comparison;
    private final ValueDiagnosis values;

    private Diagnoser(Reference reference, List<Fault> catalogue, Comparison comparison) {
        this.reference = reference;
        this.model = new FaultModel(reference);
        this.catalogue = catalogue;
        this.comparison = comparison;
        this.values = new ValueDiagnosis(model, catalogue, comparison);
    }

    /** With the home's fault catalogue (spec-tables/faults.csv); without one, null. */
    static Diagnoser of(Reference reference, Comparison comparison) {
        Path file = Home.faults();
        return Files.isRegularFile(file) ? new Diagnoser(reference, FaultCatalogue.load(file), comparison) : null;
    }

    /**
     * A failing conversion case: the causes that give every wrong answer and every right one (of every vector
     * of the set, or every input of an exhaustive range), or a scope where one holds, and where the mismatches
     * lie and how they differ. wrong: the wrong answers kept; log: every mismatch.
     */
    Diagnosis explain(Converter converter, Supplier<Batches> batches, Map<Long, Long> wrong, MismatchLog log, long vectors) {
        Batches whole = batches.get();
        ValueDiagnosis.Space space = whole instanceof Batches.Range r ? new ValueDiagnosis.Space(r.position(), r.end()) : null;
        return values.explain(converter, batches, space, wrong, log, vectors);
    }

    /** The passing inputs with their expected values ({input, expected}), of the first PASS_SAMPLE inputs. */
    private static List<long[]> passes(Supplier<Batches> batches, Map<Long, ?> wrong) {
        List<long[]> passes = new ArrayList<>();
        Batches b = batches.get();
        long[] in = new long[Batches.BATCH];
        long[] exp = new long[Batches.BATCH];
        long read = 0;
        for (int n; read < PASS_SAMPLE && (n = b.next(in, exp)) > 0; read += n) {
            for (int i = 0; i < n; i++) {
                if (!wrong.containsKey(in[i])) {
                    passes.add(new long[] {in[i], exp[i]});
                }
            }
        }
        return passes;
    }

    /** The flag decisions (decisions.csv rows of a profile with flags.csv) whose other readings are tried. */
    private static final List<Semantics.Switch<?>> FLAG_DECISIONS = List.of(Semantics.TININESS, Semantics.UNDERFLOW_FLAG,
            Semantics.OVERFLOW_FLAG);

    /**
     * Right results with wrong flags (input -> actual flags): the other readings of the flag decisions,
     * alone and together, and the catalogue's flags faults are the hypotheses. One that gives every wrong
     * flag and changes the flags of no passing input explains the case; null when none explains any.
     */
    Diagnosis explainFlags(Converter converter, Supplier<Batches> batches, Map<Long, Integer> wrong, long mismatches,
                           long vectors) {
        List<long[]> passes = passes(batches, wrong);
        Flags right = converter.flags();
        List<Diagnosis.Hypothesis> full = new ArrayList<>();
        Map<String[], FaultModel.FlagsImplementation> hypotheses = new LinkedHashMap<>();
        for (Map<String, String> reading : Readings.other(reference, FLAG_DECISIONS)) {
            hypotheses.put(named(reading, "the flags this reading of decisions.csv raises"),
                    Readings.under(reference, reading).converter(converter.spec()).flags()::of);
        }
        for (Fault f : catalogue) { // the flag decisions are tried above, alone and together
            FaultModel.FlagsImplementation lane = f.mechanism() == Mechanism.FLAGS ? model.flags(f, converter.spec()) : null;
            if (lane != null) {
                hypotheses.put(new String[] {f.id(), f.description()}, lane);
            }
        }
        for (Map.Entry<String[], FaultModel.FlagsImplementation> candidate : hypotheses.entrySet()) {
            FaultModel.FlagsImplementation lane = candidate.getValue();
            boolean explains = wrong.entrySet().stream()
                    .allMatch(e -> lane.of(e.getKey(), converter.apply(e.getKey())) == e.getValue());
            if (explains && passes.stream().allMatch(p -> lane.of(p[0], p[1]) == right.of(p[0], p[1]))) {
                full.add(new Diagnosis.Hypothesis(candidate.getKey()[0], candidate.getKey()[1], wrong.size(), 0, null, null));
            }
        }
        long passesOf = vectors - mismatches;
        List<Diagnosis.Finding> findings = flagFindings(converter, wrong);
        return Evidence.weighed(new Diagnosis(!full.isEmpty(), full.isEmpty() ? List.of() : List.of(full.getFirst()), findings,
                wrong.size(), passes.size(), mismatches, passesOf, false));
    }

    /**
     * A reading's name and words: a catalogue fault's (mechanism decision) where it is one, so that a device is told
     * the fault it has ("tininess-before-rounding"), else the reading itself.
     */
    private String[] named(Map<String, String> reading, String words) {
        String name = Readings.name(reading);
        return catalogue.stream().filter(f -> f.mechanism() == Mechanism.DECISION && f.parameter().equals(name)).findFirst()
                .map(f -> new String[] {f.id(), f.description()}).orElse(new String[] {name, words});
    }

    /** Wrong flags grouped by what was expected and what came: "expected 03 (inexact underflow), got 01 (inexact)". */
    private static List<Diagnosis.Finding> flagFindings(Converter converter, Map<Long, Integer> wrong) {
        Flags right = converter.flags();
        Map<String, Long> groups = new LinkedHashMap<>();
        for (Map.Entry<Long, Integer> e : wrong.entrySet()) {
            int want = right.of(e.getKey(), converter.apply(e.getKey()));
            groups.merge("flags expected " + ValueRunner.flagText(want) + ", got " + ValueRunner.flagText(e.getValue()), 1L,
                    Long::sum);
        }
        return groups.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(4)
                .map(e -> new Diagnosis.Finding(e.getValue(), e.getKey())).toList();
    }

    /** Passing blocks a block diagnosis reads: the first this many. */
    private static final int PASS_BLOCKS = 1 << 14;

    /**
     * A failing block case (wrong: block index -> the implementation's outputs of that block): the other
     * readings of the decisions a block conversion reads (its recipe: {@link BlockConverter#RECIPE}) are the
     * hypotheses. One that gives every wrong block exactly and changes no passing block names the recipe the
     * implementation follows; so are the catalogue's quantizer faults (mechanism block: a layout written wrong,
     * a maximum taken wrong). Failing those, the hypothesis that gives most of the differing blocks (a tensor's
     * block by block) and changes nothing else is named as a part of the cause. Null when no block is wrong.
     */
    Diagnosis explainBlocks(BlockConverter c, long[] inputs, long[] expected, int blocks, Map<Integer, long[]> wrong,
                            long mismatches) {
        if (wrong.isEmpty()) {
            return null;
        }
        List<Integer> passes = IntStream.range(0, blocks).filter(b -> !wrong.containsKey(b))
                .limit(PASS_BLOCKS).boxed().toList();
        List<Diagnosis.Hypothesis> full = new ArrayList<>();
        BlockParts parts = new BlockParts(c, comparison, expected, wrong);
        int simplest = Integer.MAX_VALUE;
        // a decision none of whose other options changes any of these blocks alone is left out: the readings
        // multiply with every decision, and NVFP4's recipe has a dozen
        List<Semantics.Switch<?>> live = BlockConverter.RECIPE.stream()
                .filter(s -> changesAlone(s, c, inputs, expected, wrong, passes)).toList();
        boolean faultsTried = false;
        for (Map<String, String> reading : Readings.other(reference, live)) {
            // a catalogue fault is one change: tried once the single decisions are, so that combinations of
            // several decisions, which multiply, are read only when neither explains the case
            if (!faultsTried && reading.size() > 1) {
                faultsTried = true;
                if (tryFaults(c, inputs, expected, passes, full, parts)) {
                    simplest = Math.min(simplest, 1);
                }
            }
            if (reading.size() > simplest) {
                break; // a reading with fewer changes explains the case
            }
            BlockConverter h = Readings.under(reference, reading).blockConverter(c.block(), c.mode(), c.toBlock());
            String[] name = named(reading, "the blocks this reading of decisions.csv gives");
            if (tryBlocks(name[0], name[1], (x, i, y, o) -> h.apply(x, i, y, o, 1), h, c, inputs, expected, passes, full,
                    parts)) {
                simplest = reading.size();
            }
        }
        if (!faultsTried) {
            tryFaults(c, inputs, expected, passes, full, parts);
        }
        List<Diagnosis.Finding> findings = blockFindings(c, expected, wrong, mismatches, blocks);
        if (full.isEmpty() && parts.best() != null && wrong.size() == mismatches) {
            // a part is counted in blocks (a tensor's one by one), every wrong unit read
            return new Diagnosis(false, List.of(parts.best()), findings, parts.differing(), passes.size(), parts.differing(),
                    blocks - mismatches, false);
        }
        return Evidence.weighed(new Diagnosis(!full.isEmpty(), full, findings, wrong.size(), passes.size(), mismatches,
                blocks - mismatches, false), wrong.size() == mismatches ? parts.differing() : mismatches);
    }

    /** Which outputs of the wrong blocks differ (scales, elements) and how, by the kinds of their mismatches. */
    private List<Diagnosis.Finding> blockFindings(BlockConverter c, long[] expected, Map<Integer, long[]> wrong,
                                                  long mismatches, int blocks) {
        Map<String, Map<String, Long>> byPart = new LinkedHashMap<>(); // "scale" -> kind -> count
        int out = c.outputsPerBlock();
        for (Map.Entry<Integer, long[]> w : wrong.entrySet()) {
            for (int i = 0; i < out; i++) {
                long want = expected[w.getKey() * out + i];
                long got = w.getValue()[i];
                if (c.compared(expected, w.getKey() * out, i) && !comparison.same(c.outputCodec(i), want, got)) {
                    String part = c.part(i).replaceAll(" .*", "").replaceAll("[0-9]+$", "");
                    byPart.computeIfAbsent(part, p -> new LinkedHashMap<>()).merge(Relation.text(Relation.of(c.outputCodec(i),
                            want, got, ValueRunner.POISON)), 1L, Long::sum);
                }
            }
        }
        List<Diagnosis.Finding> found = new ArrayList<>();
        found.add(new Diagnosis.Finding(0, String.format("%,d of %,d %s differ", mismatches, blocks, c.block().isTensor()
                ? "tensors" : "blocks") + (wrong.size() < mismatches ? " (the first " + wrong.size() + " read)" : "")));
        // every kind of output that differs (the scales, the elements, a tensor's A), its two commonest kinds of difference
        byPart.forEach((part, kinds) -> kinds.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(2).forEach(e -> found.add(new Diagnosis.Finding(e.getValue(), part + "s: " + e.getKey()))));
        return found;
    }

    /**
     * The catalogue's quantizer faults (mechanism block: layouts, the maximum, random bits) and its value faults
     * inside the element conversion: whether one explains all.
     */
    private boolean tryFaults(BlockConverter c, long[] inputs, long[] expected, List<Integer> passes,
                              List<Diagnosis.Hypothesis> full, BlockParts parts) {
        boolean explains = false;
        for (Fault f : catalogue) {
            BlockFunction w = BlockFaults.of(f, c);
            BlockFunction inElements = w != null ? null : ElementFaults.of(f, model, reference, c);
            if (w != null || inElements != null) {
                explains |= tryBlocks(f.id(), f.description() + (w != null ? "" : " (in each element's conversion)"),
                        w != null ? w : inElements, c, c, inputs, expected, passes, full, parts);
            }
        }
        return explains;
    }

    /**
     * Whether some other option of the decision alone gives some of these blocks other outputs than the reference,
     * or judges a wrong block's outputs right (scale-padding=any changes no output, only what is compared).
     */
    private boolean changesAlone(Semantics.Switch<?> decision, BlockConverter c, long[] inputs, long[] expected,
                                 Map<Integer, long[]> wrong, List<Integer> passes) {
        String chosen = reference.semantics().choices().get(decision.id());
        if (chosen == null) {
            return false;
        }
        long[] result = new long[c.outputsPerBlock()];
        for (String option : decision.optionNames()) {
            if (option.equals(chosen)) {
                continue;
            }
            BlockConverter h = Readings.under(reference, Map.of(decision.id(), option)).blockConverter(c.block(), c.mode(),
                    c.toBlock());
            for (int b : Stream.concat(wrong.keySet().stream(), passes.stream()).toList()) {
                h.apply(inputs, b * c.inputsPerBlock(), result, 0, 1);
                if (!sameBlock(c, expected, b * c.outputsPerBlock(), result, 0)
                        || wrong.containsKey(b) && sameBlock(h, result, 0, wrong.get(b), 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * One hypothesis on a block case, read block by block (BlockParts): added to full when it gives every wrong
     * block exactly (judged as judge judges its own outputs) and changes no passing block, offered to parts when it
     * gives more than half the differing blocks and changes nothing else. Whether it explains the case.
     */
    private boolean tryBlocks(String name, String description, BlockFunction h, BlockConverter judge, BlockConverter c,
                              long[] inputs, long[] expected, List<Integer> passes, List<Diagnosis.Hypothesis> full,
                              BlockParts parts) {
        BlockParts.Tally t = parts.tally(h, judge, inputs);
        if (t == null) {
            return false;
        }
        int in = c.inputsPerBlock();
        int out = c.outputsPerBlock();
        long[] result = new long[out];
        for (int b : passes) {
            h.apply(inputs, b * in, result, 0);
            if (!sameBlock(c, expected, b * out, result, 0)) {
                return false;
            }
        }
        if (!t.missed().isEmpty()) {
            parts.offer(name, description, t);
            return false;
        }
        full.add(new Diagnosis.Hypothesis(name, description, parts.units(), 0, null, null));
        return true;
    }

    /** Whether a block's outputs got equal want's as judge judges them (no elements under a NaN scale). */
    private boolean sameBlock(BlockConverter judge, long[] want, int w, long[] got, int g) {
        for (int i = 0; i < judge.outputsPerBlock(); i++) {
            if (judge.compared(want, w, i) && !comparison.same(judge.outputCodec(i), want[w + i], got[g + i])) {
                return false;
            }
        }
        return true;
    }

    /** Mismatching inputs per binade of the source ("2^e"; "0", "inf", "NaN"), in value order. */
    static Map<String, Long> binades(FormatCodec src, Map<Long, ?> wrong) {
        TreeMap<Integer, Long> byBinade = new TreeMap<>();
        long zeros = 0;
        long infinities = 0;
        long nans = 0;
        for (long x : wrong.keySet()) {
            Decoded d = src.decode(x);
            switch (d.kind()) {
                case ZERO -> zeros++;
                case INFINITE -> infinities++;
                case NAN -> nans++;
                case FINITE -> byBinade.merge(d.binade(), 1L, Long::sum);
            }
        }
        Map<String, Long> ordered = new LinkedHashMap<>();
        if (zeros > 0) {
            ordered.put("0", zeros);
        }
        byBinade.forEach((e, n) -> ordered.put("2^" + e, n));
        if (infinities > 0) {
            ordered.put("inf", infinities);
        }
        if (nans > 0) {
            ordered.put("NaN", nans);
        }
        return ordered;
    }
}
