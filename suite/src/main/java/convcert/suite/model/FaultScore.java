package convcert.suite.model;

import java.util.List;

/**
 * What `score` found: per fault of the catalogue, whether a vector set catches it. total counts the faults
 * that apply and are detectable or were caught anyway; caught those some case caught.
 */
public record FaultScore(String profile, String vectors, int caught, int total, List<Outcome> faults) {

    /** A fault's result; reports spell it by its label (toString). */
    public enum Result {
        CAUGHT("caught"), ESCAPED("ESCAPED"), UNDETECTABLE("undetectable"), NOT_APPLICABLE("not applicable");

        private final String label;

        Result(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * One fault's outcome: caught by which cases, or escaped, or not applicable to this set (why: the
     * cases its catalogue row applies to, none of which the set has).
     */
    public record Outcome(String id, String family, String description, boolean detectable, Result result,
                          List<String> caughtBy, int casesTried, String why) {
    }
}
