package convcert.suite.runner;

import convcert.common.Home;
import convcert.faults.Fault;
import convcert.faults.BlockFaults;
import convcert.faults.FaultCatalogue;
import convcert.faults.FaultModel;
import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.reference.Semantics;
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

    /** Inputs of a very large (exhaustive) case read for passes: the first this many. */
    private static final long PASS_SAMPLE = 1L << 20;

    private final Reference reference;
    private final FaultModel model;
    private final List<Fault> catalogue;
    private final Comparison comparison;

    private Diagnoser(Reference reference, List<Fault> catalogue, Comparison comparison) {
        this.reference = reference;
        this.model = new FaultModel(reference);
        this.catalogue = catalogue;
        this.comparison = comparison;
    }

    /** With the home's fault catalogue (spec-tables/faults.csv); without one, null. */
    static Diagnoser of(Reference reference, Comparison comparison) {
        Path file = Home.faults();
        return Files.isRegularFile(file) ? new Diagnoser(reference, FaultCatalogue.load(file), comparison) : null;
    }

    /** Unexplained inputs a partial diagnosis lists. */
    private static final int LISTED = 10;

    /**
     * The faults that explain the wrong answers (input -> actual) of a case whose vectors batches reads,
     * with mismatches and vectors in all; null for none.
     */
    Diagnosis explain(Converter reference, Supplier<Batches> batches, Map<Long, Long> wrong, long mismatches, long vectors) {
        if (wrong.isEmpty()) {
            return null;
        }
        List<long[]> passes = passes(batches, wrong);
        FormatCodec dst = reference.destination();
        List<Diagnosis.Hypothesis> full = new ArrayList<>();
        Diagnosis.Hypothesis best = null;
        FaultModel.Implementation bestModel = null;
        long bestScore = 0;
        for (Fault f : catalogue) {
            FaultModel.Implementation w = model.implementation(f, reference.spec());
            if (w == null) {
                continue;
            }
            long explained = wrong.entrySet().stream()
                    .filter(e -> comparison.same(dst, w.apply(e.getKey()), e.getValue())).count();
            long broken = passes.stream().filter(p -> !comparison.same(dst, p[1], w.apply(p[0]))).count();
            if (explained == wrong.size() && broken == 0) {
                full.add(new Diagnosis.Hypothesis(f.id(), f.description(), explained, broken));
            } else if (explained - broken > bestScore) {
                bestScore = explained - broken;
                best = new Diagnosis.Hypothesis(f.id(), f.description(), explained, broken);
                bestModel = w;
            }
        }
        long passesOf = vectors - mismatches;
        if (!full.isEmpty()) {
            return new Diagnosis(wrong.size(), passes.size(), true, full, List.of(), mismatches, passesOf);
        }
        if (best == null) {
            return null;
        }
        FaultModel.Implementation model = bestModel;
        List<String> unexplained = wrong.entrySet().stream()
                .filter(e -> !comparison.same(dst, model.apply(e.getKey()), e.getValue())).limit(LISTED)
                .map(e -> reference.source().format().hex(e.getKey())).toList();
        return new Diagnosis(wrong.size(), passes.size(), false, List.of(best), unexplained, mismatches, passesOf);
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
        Diagnosis.Hypothesis best = null;
        long bestScore = 0;
        Map<Diagnosis.Hypothesis, FaultModel.FlagsImplementation> hypotheses = new LinkedHashMap<>();
        for (Map<String, String> reading : Readings.other(reference, FLAG_DECISIONS)) {
            hypotheses.put(new Diagnosis.Hypothesis(Readings.name(reading), "the flags this reading of decisions.csv raises",
                    0, 0), Readings.under(reference, reading).converter(converter.spec()).flags()::of);
        }
        for (Fault f : catalogue) { // the flag decisions are tried above, alone and together
            FaultModel.FlagsImplementation lane = f.mechanism().equals("flags") ? model.flags(f, converter.spec()) : null;
            if (lane != null) {
                hypotheses.put(new Diagnosis.Hypothesis(f.id(), f.description(), 0, 0), lane);
            }
        }
        for (Map.Entry<Diagnosis.Hypothesis, FaultModel.FlagsImplementation> candidate : hypotheses.entrySet()) {
            FaultModel.FlagsImplementation lane = candidate.getValue();
            long explained = wrong.entrySet().stream()
                    .filter(e -> lane.of(e.getKey(), converter.apply(e.getKey())) == e.getValue()).count();
            long broken = passes.stream().filter(p -> lane.of(p[0], p[1]) != right.of(p[0], p[1])).count();
            Diagnosis.Hypothesis h = new Diagnosis.Hypothesis(candidate.getKey().fault(), candidate.getKey().description(),
                    explained, broken);
            if (explained == wrong.size() && broken == 0) {
                full.add(h);
            } else if (explained - broken > bestScore) {
                bestScore = explained - broken;
                best = h;
            }
        }
        long passesOf = vectors - mismatches;
        if (!full.isEmpty()) {
            return new Diagnosis(wrong.size(), passes.size(), true, List.of(full.getFirst()), List.of(), mismatches, passesOf);
        }
        return best == null ? null : new Diagnosis(wrong.size(), passes.size(), false, List.of(best), List.of(), mismatches,
                passesOf);
    }

    /** Passing blocks a block diagnosis reads: the first this many. */
    private static final int PASS_BLOCKS = 1 << 14;

    /**
     * A failing block case (wrong: block index -> the implementation's outputs of that block): the other
     * readings of the decisions a block conversion reads (its recipe: {@link BlockConverter#RECIPE}) are the
     * hypotheses. One that gives every wrong block exactly and changes no passing block names the recipe the
     * implementation follows; so are the catalogue's quantizer faults (mechanism block: a layout written wrong,
     * a maximum taken wrong). Null when none explains any block.
     */
    Diagnosis explainBlocks(BlockConverter c, long[] inputs, long[] expected, int blocks, Map<Integer, long[]> wrong,
                            long mismatches) {
        if (wrong.isEmpty()) {
            return null;
        }
        List<Integer> passes = IntStream.range(0, blocks).filter(b -> !wrong.containsKey(b))
                .limit(PASS_BLOCKS).boxed().toList();
        List<Diagnosis.Hypothesis> full = new ArrayList<>();
        Diagnosis.Hypothesis[] best = {null};
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
                if (tryFaults(c, inputs, expected, wrong, passes, full, best)) {
                    simplest = Math.min(simplest, 1);
                }
            }
            if (reading.size() > simplest) {
                break; // a reading with fewer changes explains the case
            }
            BlockConverter h = Readings.under(reference, reading).blockConverter(c.block(), c.mode(), c.toBlock());
            if (tryBlocks(new Diagnosis.Hypothesis(Readings.name(reading), "the blocks this reading of decisions.csv gives",
                    0, 0), (x, i, y, o) -> h.apply(x, i, y, o, 1), h, c, inputs, expected, wrong, passes, full, best)) {
                simplest = reading.size();
            }
        }
        if (!faultsTried) {
            tryFaults(c, inputs, expected, wrong, passes, full, best);
        }
        long passesOf = blocks - mismatches;
        if (!full.isEmpty()) {
            return new Diagnosis(wrong.size(), passes.size(), true, full, List.of(), mismatches, passesOf);
        }
        return best[0] == null ? null : new Diagnosis(wrong.size(), passes.size(), false, List.of(best[0]), List.of(),
                mismatches, passesOf);
    }

    /** The catalogue's quantizer faults (mechanism block: layouts, the maximum, random bits): whether one explains all. */
    private boolean tryFaults(BlockConverter c, long[] inputs, long[] expected, Map<Integer, long[]> wrong,
                              List<Integer> passes, List<Diagnosis.Hypothesis> full, Diagnosis.Hypothesis[] best) {
        boolean explains = false;
        for (Fault f : catalogue) {
            BlockFunction w = BlockFaults.of(f, c);
            if (w != null) {
                explains |= tryBlocks(new Diagnosis.Hypothesis(f.id(), f.description(), 0, 0), w, c, c, inputs, expected,
                        wrong, passes, full, best);
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
     * One hypothesis on a block case: how many wrong blocks it gives exactly (judged as judge judges its own
     * outputs) and how many passing blocks it changes; added to full when it explains all and changes none,
     * else kept in best[0] when it is the best partial one so far. Whether it explains the case.
     */
    private boolean tryBlocks(Diagnosis.Hypothesis named, BlockFunction h, BlockConverter judge, BlockConverter c,
                              long[] inputs, long[] expected, Map<Integer, long[]> wrong, List<Integer> passes,
                              List<Diagnosis.Hypothesis> full, Diagnosis.Hypothesis[] best) {
        int in = c.inputsPerBlock();
        int out = c.outputsPerBlock();
        long[] result = new long[out];
        long explained = 0;
        for (Map.Entry<Integer, long[]> w : wrong.entrySet()) {
            h.apply(inputs, w.getKey() * in, result, 0);
            explained += sameBlock(judge, result, 0, w.getValue(), 0) ? 1 : 0;
        }
        if (explained < wrong.size() && (explained == 0 || best[0] != null
                && explained <= best[0].explains() - best[0].changes())) {
            return false; // neither full nor better than the best partial one, whatever it changes
        }
        long broken = 0;
        for (int b : passes) {
            h.apply(inputs, b * in, result, 0);
            broken += sameBlock(c, expected, b * out, result, 0) ? 0 : 1;
        }
        Diagnosis.Hypothesis hypothesis = new Diagnosis.Hypothesis(named.fault(), named.description(), explained, broken);
        if (explained == wrong.size() && broken == 0) {
            full.add(hypothesis);
            return true;
        }
        if (explained - broken > 0 && (best[0] == null || explained - broken > best[0].explains() - best[0].changes())) {
            best[0] = hypothesis;
        }
        return false;
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
