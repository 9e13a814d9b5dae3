package convcert.suite.prove;

import convcert.rtl.ReferenceModel;
import java.util.List;

/**
 * How a proof is run.
 *
 * @param generation     the reference model's generation
 * @param anyNaN         whether any NaN matches a NaN (nan-comparison=any), as certification judges
 * @param smtSolvers     SMT solvers that must agree beside Yosys' SAT and ABC, each on the miter as Yosys
 *                       writes it in SMT-LIB before bit-blasting: a word-level view of the same netlist
 * @param timeoutSeconds each engine's limit
 * @param counterexamples how many counterexamples a refutation seeks (at least 1): each after the first is one
 *                        more SAT run, with the inputs before excluded from the miter
 */
public record Settings(ReferenceModel.Generation generation, boolean anyNaN, List<String> smtSolvers, long timeoutSeconds,
                       int counterexamples) {

    /** Enough counterexamples to tell apart the faults one input leaves open (faults.csv's diagnosis). */
    public static final int COUNTEREXAMPLES = 8;

    /**
     * The SMT solvers prove runs: cvc5 reads Yosys' SMT-LIB and decides the example RTL's 64-bit cases in about 20 s.
     * Not offered, as measured (docs/prove.md): z3 4.8.12 (no answer to double->bfloat16 in 200 s, with or without
     * a bit-blasting tactic) and boolector 1.5 (its parser refuses the define-fun with arguments Yosys writes).
     */
    public static final List<String> SOLVERS = List.of("cvc5");

    public Settings {
        smtSolvers = List.copyOf(smtSolvers);
    }
}
