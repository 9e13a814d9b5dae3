package convcert.suite.runner;

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
    NOT_RUN
}
