package convcert.faults;

import convcert.spec.Location;
import convcert.spec.Rounding;
import java.util.List;
import java.util.Set;

/**
 * One row of spec-tables/faults.csv: a plausible implementation bug, defined as a change to the
 * reference's semantics or a transformation of its inputs or results (FaultModel), where it
 * applies, and whether a vector set can catch it at all (NaN encodings cannot be seen when
 * certification compares any NaN with any NaN). modes: the rounding modes among the applies words
 * (empty: every mode).
 */
public record Fault(String id, String family, Mechanism mechanism, String parameter, List<String> applies,
                    Set<Rounding> modes, boolean detectable, String description, Location location) {
}
