package convcert.suite.diagnosis;

import convcert.suite.model.Diagnosis;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How much a diagnosis may claim from what it saw. A single mismatch fits many causes that the case's other
 * vectors cannot tell apart (a block whose scale one reading and one bug both move, a tie that several tie faults
 * break alike): a cause is named from two mismatches on; from one, the causes it fits become a finding.
 */
public final class Evidence {

    private Evidence() {
    }

    /** The diagnosis as convcert may state it: d, or with its causes turned into a finding where one mismatch is all. */
    public static Diagnosis weighed(Diagnosis d) {
        return weighed(d, d.mismatchesOf());
    }

    /**
     * The same, where the mismatches are observed in another unit than the case counts them in: a tensor case counts
     * tensors, but each of its blocks that differs is an observation of its own (BlockParts).
     */
    public static Diagnosis weighed(Diagnosis d, long observations) {
        if (observations >= 2 || d.faults().isEmpty()) {
            return d;
        }
        List<Diagnosis.Finding> findings = new ArrayList<>(d.findings());
        findings.add(new Diagnosis.Finding(0, "the one mismatch fits " + d.faults().stream().map(Diagnosis.Hypothesis::fault)
                .collect(Collectors.joining(" or ")) + ": too little to name a cause"));
        return new Diagnosis(false, List.of(), findings, d.mismatches(), d.passes(), d.mismatchesOf(), d.passesOf(),
                d.wholeSpace(), d.millis());
    }
}
