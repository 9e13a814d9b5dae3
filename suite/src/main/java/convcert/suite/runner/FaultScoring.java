package convcert.suite.runner;

import convcert.common.WorkingDirectory;
import convcert.faults.BlockFaults;
import convcert.faults.Fault;
import convcert.faults.FaultModel;
import convcert.faults.Mechanism;
import convcert.faults.Faulty;
import convcert.families.CaseKeys;
import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.suite.model.FaultScore;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fault score of a vector set: every applicable fault of the catalogue (faults.csv) run over every case's
 * inputs (a conversion's faults over conversion cases, a quantizer's, mechanism block, over block and tensor
 * cases); a fault is caught when some output differs from the expected value, judged by the run's Comparison.
 */
public final class FaultScoring {

    private FaultScoring() {
    }

    public static FaultScore score(Reference reference, VectorStore store, List<Manifest.Entry> entries, List<Fault> catalogue) {
        FaultModel model = new FaultModel(reference);
        Comparison comparison = Comparison.of(reference);
        Map<String, long[][]> files = new LinkedHashMap<>();
        List<FaultScore.Outcome> outcomes = new ArrayList<>();
        int caught = 0;
        int total = 0;
        for (Fault f : catalogue) {
            Trial t = new Trial(reference, store, entries, model, comparison, files, f);
            List<String> by = t.by;
            int tried = t.tried;
            boolean admitted = t.admitted;
            FaultScore.Result result;
            String why = null;
            if (tried == 0) {
                result = FaultScore.Result.NOT_APPLICABLE;
                why = admitted ? model.whyInert(f) + " (" + f.location() + ")"
                        : "applies to " + String.join(" ", f.applies()) + " cases (" + f.location() + "); this set has none";
            } else if (!by.isEmpty()) {
                result = FaultScore.Result.CAUGHT;
            } else {
                result = f.detectable() ? FaultScore.Result.ESCAPED : FaultScore.Result.UNDETECTABLE;
            }
            if (tried > 0 && (f.detectable() || !by.isEmpty())) {
                total++;
                caught += by.isEmpty() ? 0 : 1;
            }
            outcomes.add(new FaultScore.Outcome(f.id(), f.family(), f.description(), f.detectable(), result, by, tried, why));
        }
        return new FaultScore(reference.tables().profile(), WorkingDirectory.relative(store.folder()).toString(), caught,
                total, outcomes);
    }

    /** One fault tried on every case of the set, up to the first that catches it. */
    private static final class Trial {
        final List<String> by = new ArrayList<>();
        int tried;
        boolean admitted;

        Trial(Reference reference, VectorStore store, List<Manifest.Entry> entries, FaultModel model, Comparison comparison,
              Map<String, long[][]> files, Fault f) {
            for (Manifest.Entry e : entries) {
                if (f.mechanism() == Mechanism.BLOCK || e.kind().ofBlocks()) { // a quantizer's fault on a block or tensor case
                    BlockConverter b = e.kind().ofBlocks() ? BlockVectorFiles.converter(reference, e.from(), e.to(), e.rounding())
                            : null;
                    BlockFunction wrong = b == null ? null : BlockFaults.of(f, b);
                    admitted |= b != null && f.mechanism() == Mechanism.BLOCK && b.toBlock();
                    if (wrong == null) {
                        continue;
                    }
                    tried++;
                    long[][] io = files.computeIfAbsent(e.name(), n -> new long[][] {store.readBlocks(e, true, b),
                        store.readBlocks(e, false, b)});
                    if (blocksDiffer(wrong, b, io, e.count(), comparison)) {
                        by.add(CaseKeys.ofBlock(reference.tables().profile(), b).name());
                        break;
                    }
                    continue;
                }
                Conversion c = reference.conversion(e.from(), e.to());
                List<Manifest.Variant> variants = VectorStore.variants(e);
                for (int i = 0; i < (f.mechanism() == Mechanism.CONTROL ? variants.size() : 1); i++) {
                    Case state = reference.resolve(VectorStore.key(e, i));
                    admitted |= model.applies(f, state);
                    Faulty wrong = model.implementation(f, state);
                    if (wrong == null) {
                        continue;
                    }
                    tried++;
                    Converter right = reference.converter(state);
                    // operands: a lane case's values with their random bits or scales, as the faults convert them
                    long[][] io = files.computeIfAbsent(e.name(), n -> new long[][] {
                        store.readOperands(e, right), store.read(e, false, c.to().width())});
                    FormatCodec dst = right.destination();
                    FaultModel.FlagsImplementation wrongFlags = model.flags(f, state);
                    if (wrongFlags != null ? flagsDiffer(wrongFlags, right.flags(), io) : differs(wrong, io, dst, comparison)) {
                        by.add(VectorStore.key(e, i).name());
                        break;
                    }
                }
            }
        }
    }

    /** A flags fault's flags against the right ones, on the right results (its results are right). */
    private static boolean flagsDiffer(FaultModel.FlagsImplementation wrong, Flags right, long[][] io) {
        for (int k = 0; k < io[0].length; k++) {
            if (wrong.of(io[0][k], io[1][k]) != right.of(io[0][k], io[1][k])) {
                return true;
            }
        }
        return false;
    }

    /** Whether a faulty quantizer's blocks (or tensors) differ from the expected ones anywhere, as certification judges. */
    private static boolean blocksDiffer(BlockFunction wrong, BlockConverter c, long[][] io, int count, Comparison comparison) {
        int in = c.inputsPerBlock();
        int out = c.outputsPerBlock();
        long[] result = new long[out];
        for (int b = 0; b < count; b++) {
            wrong.apply(io[0], b * in, result, 0);
            for (int i = 0; i < out; i++) {
                if (c.compared(io[1], b * out, i) && !comparison.same(c.outputCodec(i), io[1][b * out + i], result[i])) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the fault's outputs differ from the expected ones anywhere, judged by the run's Comparison. */
    private static boolean differs(Faulty wrong, long[][] io, FormatCodec dst, Comparison comparison) {
        for (int k = 0; k < io[0].length; k++) {
            if (!comparison.same(dst, io[1][k], wrong.apply(io[0][k]))) {
                return true;
            }
        }
        return false;
    }
}
