package convcert.suite.runner;

import convcert.common.WorkingDirectory;
import convcert.faults.Fault;
import convcert.faults.FaultModel;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.suite.model.FaultScore;
import convcert.vectors.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fault score of a vector set: every applicable fault of the catalogue (faults.csv) run over every case's
 * inputs; a fault is caught when some output differs from the expected value, judged by the run's Comparison.
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
            List<String> by = new ArrayList<>();
            int tried = 0;
            boolean admitted = false;
            for (Manifest.Entry e : entries) {
                Conversion c = reference.conversion(e.from(), e.to());
                List<Manifest.Variant> variants = VectorStore.variants(e);
                for (int i = 0; i < (f.mechanism().equals("control") ? variants.size() : 1); i++) {
                    Case state = reference.resolve(VectorStore.key(e, i));
                    admitted |= model.applies(f, state);
                    FaultModel.Implementation wrong = model.implementation(f, state);
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

    /** A flags fault's flags against the right ones, on the right results (its results are right). */
    private static boolean flagsDiffer(FaultModel.FlagsImplementation wrong, Flags right, long[][] io) {
        for (int k = 0; k < io[0].length; k++) {
            if (wrong.of(io[0][k], io[1][k]) != right.of(io[0][k], io[1][k])) {
                return true;
            }
        }
        return false;
    }

    /** Whether the fault's outputs differ from the expected ones anywhere, judged by the run's Comparison. */
    private static boolean differs(FaultModel.Implementation wrong, long[][] io, FormatCodec dst, Comparison comparison) {
        for (int k = 0; k < io[0].length; k++) {
            if (!comparison.same(dst, io[1][k], wrong.apply(io[0][k]))) {
                return true;
            }
        }
        return false;
    }
}
