package convcert.suite.prove;

import java.util.ArrayList;
import java.util.List;

/**
 * What `convcert prove` found: the verdict, each engine's own, and a counterexample where the design differs
 * from the reference model. A proof counts only when both engines prove; a disagreement is never a pass.
 *
 * @param verdict        the combined verdict
 * @param engines        each engine's verdict, time and what it said
 * @param counterexamples inputs the design converts differently from the reference (empty when none): the
 *                        engines' first, then more found with those before excluded
 */
public record Proof(Verdict verdict, List<Engine> engines, List<Counterexample> counterexamples) {

    /** The engines' counterexample, or null. */
    public Counterexample counterexample() {
        return counterexamples.isEmpty() ? null : counterexamples.getFirst();
    }

    /**
     * Why the engines gave no verdict, each reason with what shows it: an engine that could not finish and what it
     * said, or engines that disagree and which said what. Empty where they agree on a refutation whose model the
     * reference does not confirm (the caller shows the model).
     */
    public List<String> undecidedBecause() {
        List<String> why = new ArrayList<>();
        engines.stream().filter(e -> e.verdict() == Verdict.UNDECIDED).forEach(e -> why.add(e.name() + " could not finish: "
                + e.said()));
        List<String> proving = engines.stream().filter(e -> e.verdict() == Verdict.PROVEN).map(Engine::name).toList();
        List<String> refuting = engines.stream().filter(e -> e.verdict() == Verdict.REFUTED).map(Engine::name).toList();
        if (!proving.isEmpty() && !refuting.isEmpty()) {
            why.add("the engines disagree: " + String.join(", ", proving) + " proved, " + String.join(", ", refuting)
                    + " refuted");
        }
        return why;
    }

    /** A verdict, an engine's or the combined one. */
    public enum Verdict {
        /** Equal for every input. */
        PROVEN,
        /** An input whose results differ. */
        REFUTED,
        /** The engines disagree, or one could not finish: no verdict. */
        UNDECIDED
    }

    /** One engine's run: its name and version, verdict, seconds and the line it ended with. */
    public record Engine(String name, Verdict verdict, double seconds, String said) {
    }

    /**
     * An input, the design's result for it and the reference's; undefined: the design's output has X bits there (any
     * value: actual is the one the engines chose).
     */
    public record Counterexample(long input, long actual, long expected, boolean undefined) {

        public Counterexample(long input, long actual, long expected) {
            this(input, actual, expected, false);
        }
    }

    /** Both engines' verdicts combined: PROVEN or REFUTED only when they agree. */
    static Verdict combined(List<Engine> engines) {
        Verdict first = engines.getFirst().verdict();
        boolean agree = engines.stream().allMatch(e -> e.verdict() == first);
        return agree && first != Verdict.UNDECIDED ? first : Verdict.UNDECIDED;
    }
}
