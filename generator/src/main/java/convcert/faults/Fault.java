package convcert.faults;

import convcert.spec.Location;
import java.util.List;

/**
 * One row of spec-tables/faults.csv: a plausible implementation bug, defined as a change to the
 * reference's semantics or a transformation of its inputs or results (FaultModel), where it
 * applies, and whether a vector set can catch it at all (NaN encodings cannot be seen when
 * certification compares any NaN with any NaN).
 */
public record Fault(String id, String family, String mechanism, String parameter, List<String> applies,
                    boolean detectable, String description, Location location) {
}
