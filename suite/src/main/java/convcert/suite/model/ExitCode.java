package convcert.suite.model;

/** convcert's exit codes, declared once (README and certify's help list them). */
public enum ExitCode {
    /** At least one case certified, every applicable case agrees or is waived. */
    PASS(0),
    /** Mismatches, or an expired waiver. */
    MISMATCHES(1),
    /** A usage or configuration error: a bad argument, spec table, waiver line or report to merge. */
    USAGE(2),
    /** The adapter failed on a case. */
    ADAPTER_FAILURE(3),
    /** A case could not run, or an internal error. */
    INTERNAL(4),
    /** Nothing certified: nothing selected, nothing applicable, or everything waived. */
    NOTHING_CERTIFIED(5),
    /** Interrupted by SIGINT (SIGTERM gives 143): the reports are marked partial. */
    INTERRUPTED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
