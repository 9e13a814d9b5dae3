package convcert.suite.diagnosis;

import convcert.suite.model.Diagnosis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What each checked candidate is, from its cells against the device's (MismatchLog): a cause that holds
 * everywhere (every cell the same, mismatches and passes alike); a cause within a scope (every cell that holds
 * mismatches the same, but results changed where the device passed); or a part of the cause (the same in the
 * cells that hold most mismatches, other mismatches elsewhere, and no result changed where the device passed).
 * The causes named are the exact ones; failing those, the scoped ones; failing those, the best part.
 */
final class Verdicts {

    private final Regions regions;
    private final MismatchLog log;
    /** How many inputs a sample read outside the cells with mismatches (0: every input was read). */
    private final long sampled;
    private final boolean[] mismatching;
    private final List<Diagnosis.Hypothesis> exact = new ArrayList<>();
    private final List<Diagnosis.Hypothesis> scoped = new ArrayList<>();
    private final List<Diagnosis.Hypothesis> partial = new ArrayList<>();

    Verdicts(Regions regions, MismatchLog log, long sampled) {
        this.regions = regions;
        this.log = log;
        this.sampled = sampled;
        this.mismatching = new boolean[log.count.length];
        for (int c = 0; c < mismatching.length; c++) {
            mismatching[c] = log.count[c] > 0;
        }
    }

    /** Files one checked candidate under what it is, if anything. */
    void judge(CauseCheck.Changes k) {
        boolean[] same = new boolean[mismatching.length];
        boolean[] differs = new boolean[mismatching.length];
        long given = 0;
        for (int c = 0; c < same.length; c++) {
            if (mismatching[c]) {
                same[c] = k.count[c] == log.count[c] && k.digest[c] == log.digest[c];
                differs[c] = !same[c];
                given += same[c] ? log.count[c] : 0;
            }
        }
        long changes = 0;
        boolean elsewhere = false;
        for (int c = 0; c < k.extra.length; c++) {
            elsewhere |= k.extra[c];
            changes += k.extra[c] ? k.count[c] : 0;
        }
        if (given == log.total() && !elsewhere) {
            exact.add(new Diagnosis.Hypothesis(k.fault, k.description, given, 0, null, null));
        } else if (given == log.total()) {
            boolean[] scope = new boolean[same.length];
            String inScope = regions.words(same, k.extra, scope);
            String where = regions.words(k.extra, scope, null);
            scoped.add(new Diagnosis.Hypothesis(k.fault, k.description, given, k.whole ? changes : k.sampled, inScope,
                    (where == null ? "" : where) + (k.whole ? "" : String.format(" (seen in a sample of %,d inputs)", sampled))));
        } else if (!elsewhere && 2 * given > log.total()) {
            boolean[] part = new boolean[same.length];
            String inPart = regions.words(same, differs, part);
            partial.add(new Diagnosis.Hypothesis(k.fault, k.description, given, 0, inPart, regions.words(differs, part, null)));
        }
    }

    /** The causes to name: every exact one; else the scoped ones that change fewest passes; else the best part. */
    List<Diagnosis.Hypothesis> causes() {
        if (!exact.isEmpty()) {
            return exact;
        }
        if (!scoped.isEmpty()) {
            return scoped.stream().sorted(Comparator.comparingLong(Diagnosis.Hypothesis::changes)).limit(2).toList();
        }
        return partial.stream().sorted(Comparator.comparingLong(h -> -h.explains())).limit(1).toList();
    }
}
