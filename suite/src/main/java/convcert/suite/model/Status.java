package convcert.suite.model;

import java.util.List;

/** How a case ended. Only PASS certifies anything; the verdict (ConformanceReport.verdict) weighs the rest. */
public enum Status {
    /** Every vector agreed. */
    PASS,
    /** At least one vector differed. */
    FAIL,
    /** The adapter does not implement the case: never counted as a pass. */
    NOT_APPLICABLE,
    /** The adapter crashed, hung, returned garbage or the wrong number of values. */
    ADAPTER_ERROR,
    /** The case could not run: its vectors are unreadable or the suite failed inside it. */
    ERROR,
    /** It failed, and a waiver that has not expired accepts the deviation. */
    WAIVED,
    /** The run was interrupted before the case finished. */
    NOT_RUN;

    /** Worst first: merging shards and folding variants keep the worse, so an error hides nothing. */
    private static final List<Status> SEVERITY = List.of(ERROR, ADAPTER_ERROR, FAIL, NOT_RUN, WAIVED, PASS, NOT_APPLICABLE);

    public static Status worse(Status a, Status b) {
        return SEVERITY.indexOf(a) <= SEVERITY.indexOf(b) ? a : b;
    }

    /** The case did not run to its end: the adapter failed, the case could not run, or the run was cut. */
    public boolean broken() {
        return this == ADAPTER_ERROR || this == ERROR || this == NOT_RUN;
    }

    /** What a reader acts on: a case that applies and did not pass. */
    public boolean finding() {
        return this != PASS && this != NOT_APPLICABLE;
    }
}
