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
        CauseCheck check = new CauseCheck(reference, judge, log);
        long t0 = System.nanoTime();
        if (System.getenv("CONVCERT_TRACE") != null) System.err.println("candidates: " + candidates.stream().map(k -> k.fault).toList());
        if (!candidates.isEmpty()) {
            if (space == null) {
                check.set(candidates, vectors.get());
            } else {
                check.range(candidates, space.first(), space.end());
            }
        }
        if (System.getenv("CONVCERT_TRACE") != null) System.err.println("check: " + (System.nanoTime() - t0) / 1000000 + " ms");
        List<Diagnosis.Hypothesis> exact = new ArrayList<>();
        List<Diagnosis.Hypothesis> scoped = new ArrayList<>();
        Regions regions = new Regions(log.cells, reference.source());
        boolean[] mismatching = new boolean[log.cells.count()];
        for (int c = 0; c < mismatching.length; c++) {
            mismatching[c] = log.count[c] > 0;
        }
        for (CauseCheck.Changes k : candidates) {
            if (!agrees(k, log)) {
                continue;
            }
            boolean elsewhere = false;
            long changes = 0;
            for (int c = 0; c < k.extra.length; c++) {
                elsewhere |= k.extra[c];
                changes += k.extra[c] ? k.count[c] : 0;
            }
            if (!elsewhere) {
                exact.add(new Diagnosis.Hypothesis(k.fault, k.description, log.total(), 0, null, null));
            } else {
                changes = k.whole ? changes : k.sampled;
                boolean[] scope = new boolean[mismatching.length];
                String inScope = regions.words(mismatching, k.extra, scope);
                String where = regions.words(k.extra, scope, null);
                scoped.add(new Diagnosis.Hypothesis(k.fault, k.description, log.total(), changes, inScope,
                        (where == null ? "" : where)
                        + (k.whole ? "" : " (seen in a sample of one input in " + sampleStride(space) + ")")));
            }
        }
        scoped.sort(Comparator.comparingLong(Diagnosis.Hypothesis::changes));
        List<Diagnosis.Hypothesis> causes = !exact.isEmpty() ? exact : scoped.stream().limit(2).toList();
        List<Diagnosis.Finding> findings = new Findings(reference, model.ties(reference.spec()))
                .of(log, wrong, space == null ? vectors : null);
        long mismatches = log.total();
        return new Diagnosis(!causes.isEmpty(), causes, findings, mismatches, vectorCount - mismatches, mismatches,
                vectorCount - mismatches, space != null);
    }

    private static long sampleStride(Space space) {
        return Math.max(1, (space.end() - space.first()) >>> 20);
    }

    /** The candidates that give every wrong answer kept. */
    private List<CauseCheck.Changes> screened(Converter reference, Map<Long, Long> wrong, int cells) {
        FormatCodec dst = reference.destination();
        long[] in = wrong.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] out = new long[in.length];
        List<CauseCheck.Changes> kept = new ArrayList<>();
        for (Fault f : catalogue) {
            Faulty w = model.implementation(f, reference.spec());
            if (w == null) {
                continue;
            }
            w.apply(in, null, out, 0, in.length);
            boolean all = true;
            for (int i = 0; i < in.length && all; i++) {
                all = judge.same(dst, out[i], wrong.get(in[i]));
            }
            if (all) {
                kept.add(new CauseCheck.Changes(f.id(), f.description(), w, cells));
            }
        }
        return kept;
    }

    /** Whether a candidate gives exactly the device's mismatches in every cell that holds some. */
    private static boolean agrees(CauseCheck.Changes k, MismatchLog log) {
        for (int c = 0; c < log.count.length; c++) {
            if (log.count[c] > 0 && (k.count[c] != log.count[c] || k.digest[c] != log.digest[c])) {
                return false;
            }
        }
        return true;
    }
}
