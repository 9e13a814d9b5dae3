package convcert.suite.model;

import java.util.List;

/**
 * What a failing case's implementation probably does wrong, from the fault catalogue
 * (spec-tables/faults.csv), as data: complete when each of faults reproduces every one of the diagnosed
 * mismatches and changes none of the passes read; otherwise faults holds the best partial explanation
 * alone, and unexplained the first inputs (hex) it does not reproduce. mismatches and passes: how many
 * of each the hypotheses were tried on; of: how many the case has (more than were tried when the case
 * is too large to try them all, as an exhaustive one).
 */
public record Diagnosis(long mismatches, long passes, boolean complete, List<Hypothesis> faults, List<String> unexplained,
                        long mismatchesOf, long passesOf) {

    /** A fault tried on the case: the mismatches it reproduces and the passes it would break. */
    public record Hypothesis(String fault, String description, long explains, long changes) {
    }

    public Diagnosis {
        faults = List.copyOf(faults);
        unexplained = unexplained == null ? List.of() : List.copyOf(unexplained);
        if (faults.isEmpty() || (!complete && faults.size() != 1)) {
            throw new IllegalArgumentException("a diagnosis names its faults, a partial one exactly one");
        }
    }

    /** Whether the hypotheses were tried on part of the case only. */
    public boolean sampled() {
        return mismatches < mismatchesOf || passes < passesOf;
    }
}
