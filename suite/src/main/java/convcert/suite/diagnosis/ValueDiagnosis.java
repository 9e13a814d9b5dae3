package convcert.suite.diagnosis;

import convcert.faults.Fault;
import convcert.faults.FaultModel;
import convcert.faults.Faulty;
import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.suite.model.Diagnosis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Why a conversion case fails. Every fault of the catalogue that applies is a candidate; one that does not give
 * every wrong answer kept is dropped at once. The rest are run over every input that could refute them (the
 * whole vector set, or every input of an exhaustive range: CauseCheck) and compared with the device cell by
 * cell (MismatchLog). A candidate equal to the device in every cell is a cause. One equal to it in every cell
 * that holds a mismatch, but changing results in cells where the device passed, holds only within a scope: it
 * is named as such, with the region where it holds and the one where it does not, and only when no candidate
 * holds everywhere. Whatever the causes, the findings say where the mismatches lie and how they differ
 * (Findings), so that a case is never left without a word.
 */
public final class ValueDiagnosis {

    /** An exhaustive case's inputs: [first, end), expected values computed by the reference. */
    public record Space(long first, long end) {
    }

    private final FaultModel model;
    private final List<Fault> catalogue;
    private final Judge judge;

    public ValueDiagnosis(FaultModel model, List<Fault> catalogue, Judge judge) {
        this.model = model;
        this.catalogue = catalogue;
        this.judge = judge;
    }

    /**
     * A failing case's diagnosis. vectors: the case's whole vector set (read again for every use), or null with
     * space; wrong: the wrong answers kept (input -> actual, at most a few thousand); log: every mismatch.
     */
    public Diagnosis explain(Converter reference, Supplier<? extends VectorSource> vectors, Space space,
                             Map<Long, Long> wrong, MismatchLog log, long vectorCount) {
        List<CauseCheck.Changes> candidates = screened(reference, wrong, log.cells.count());
        if (!candidates.isEmpty()) {
            CauseCheck check = new CauseCheck(reference, judge, log);
            if (space == null) {
                check.set(candidates, vectors.get());
            } else {
                check.range(candidates, space.first(), space.end());
            }
        }
        Verdicts verdicts = new Verdicts(new Regions(log.cells, reference.source()), log,
                space == null ? 0 : Math.min(CauseCheck.CHUNK, space.end() - space.first()));
        candidates.forEach(verdicts::judge);
        List<Diagnosis.Hypothesis> causes = verdicts.causes();
        List<Diagnosis.Finding> findings = new Findings(reference, model.ties(reference.spec()))
                .of(log, wrong, space == null ? vectors : null);
        long mismatches = log.total();
        boolean complete = !causes.isEmpty() && causes.getFirst().explains() == mismatches;
        return Evidence.weighed(new Diagnosis(complete, causes, findings, mismatches, vectorCount - mismatches, mismatches,
                vectorCount - mismatches, space != null));
    }

    /** Parts of a cause checked at most, where no candidate gives every wrong answer kept. */
    private static final int PARTS = 2;

    /**
     * The candidates worth checking over every input: each gives more than half the wrong answers kept (one that
     * gives all of them may be the cause; one that gives most may be a part of it, checked only where none gives all:
     * each costs a pass over an exhaustive case's inputs), best first.
     */
    private List<CauseCheck.Changes> screened(Converter reference, Map<Long, Long> wrong, int cells) {
        FormatCodec dst = reference.destination();
        long[] in = wrong.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] out = new long[in.length];
        List<CauseCheck.Changes> kept = new ArrayList<>();
        Map<CauseCheck.Changes, Integer> gives = new java.util.HashMap<>();
        for (Fault f : catalogue) {
            Faulty w = model.implementation(f, reference.spec());
            if (w == null) {
                continue;
            }
            w.apply(in, null, out, 0, in.length);
            int n = 0;
            for (int i = 0; i < in.length; i++) {
                n += judge.same(dst, out[i], wrong.get(in[i])) ? 1 : 0;
            }
            if (2L * n > in.length) {
                CauseCheck.Changes k = new CauseCheck.Changes(f.id(), f.description(), w, cells);
                kept.add(k);
                gives.put(k, n);
            }
        }
        kept.sort(Comparator.comparingInt((CauseCheck.Changes k) -> -gives.get(k)));
        long all = kept.stream().filter(k -> gives.get(k) == in.length).count();
        // those that give every wrong answer, if any (a part is named only where no cause is); else the best parts
        return kept.subList(0, (int) Math.min(kept.size(), all > 0 ? all : PARTS));
    }

}
