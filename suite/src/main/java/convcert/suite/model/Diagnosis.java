package convcert.suite.model;

import java.util.List;

/**
 * Why a failing case fails, as data: the causes that explain every mismatch (faults of the catalogue,
 * spec-tables/faults.csv, or other readings of the case's decisions), each checked against every vector that
 * could refute it, and where the mismatches lie and how they differ (findings), which a diagnosis always has.
 * complete: faults explain every mismatch (each everywhere, or within its scope); otherwise faults holds at most
 * one part of the cause (it gives the mismatches of its scope exactly and no others, and changes no pass) or
 * none, and the findings say where and how the results differ. mismatches and passes: how many of each the
 * causes were checked on; of: how many the case has; wholeSpace: the check covered every input of the case
 * (an exhaustive one), through digests of each region's mismatches rather than a sample; millis: how long the
 * diagnosis took, beside the case's own time.
 */
public record Diagnosis(boolean complete, List<Hypothesis> faults, List<Finding> findings, long mismatches, long passes,
                        long mismatchesOf, long passesOf, boolean wholeSpace, long millis) {

    /**
     * A cause: the fault or reading, what it is, how many mismatches it gives exactly, and its scope. scope null:
     * it gives every result of the case, mismatches and passes alike. Otherwise, for a cause within a scope
     * (explains every mismatch), the region (in words) where it gives every result, changes the passing vectors it
     * would change elsewhere, elsewhere where they lie; for a part of the cause (explains fewer), the region where
     * it gives the results, and elsewhere where the mismatches it does not give lie.
     */
    public record Hypothesis(String fault, String description, long explains, long changes, String scope, String elsewhere) {
    }

    /** Where some mismatches lie and how they differ, in words, with how many they are. */
    public record Finding(long mismatches, String text) {
    }

    public Diagnosis(boolean complete, List<Hypothesis> faults, List<Finding> findings, long mismatches, long passes,
                     long mismatchesOf, long passesOf, boolean wholeSpace) {
        this(complete, faults, findings, mismatches, passes, mismatchesOf, passesOf, wholeSpace, 0);
    }

    /** The same diagnosis, with how long it took. */
    public Diagnosis took(long ms) {
        return new Diagnosis(complete, faults, findings, mismatches, passes, mismatchesOf, passesOf, wholeSpace, ms);
    }

    public Diagnosis {
        faults = List.copyOf(faults);
        findings = findings == null ? List.of() : List.copyOf(findings);
        if (complete && faults.isEmpty() || !complete && faults.size() > 1) {
            throw new IllegalArgumentException("a complete diagnosis names its causes, an incomplete one at most a part");
        }
    }

    /** Whether the causes were checked on part of the case only. */
    public boolean sampled() {
        return !wholeSpace && (mismatches < mismatchesOf || passes < passesOf);
    }

    /** Whether some cause holds only within a scope. */
    public boolean scoped() {
        return faults.stream().anyMatch(h -> h.scope() != null);
    }

    /** The part of the cause an incomplete diagnosis names, or null. */
    public Hypothesis part() {
        return complete || faults.isEmpty() ? null : faults.getFirst();
    }
}
