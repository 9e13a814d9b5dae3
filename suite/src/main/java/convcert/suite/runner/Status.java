package convcert.suite.runner;

/** How a case ended. */
public enum Status {
    /** Every vector agreed. */
    PASS,
    /** At least one vector differed. */
    FAIL,
    /** The adapter does not implement the case: never counted as a pass. */
    NOT_APPLICABLE,
    /** The adapter crashed, hung, returned garbage or the wrong number of values. */
    ADAPTER_ERROR,
    /** It failed, and a waiver that has not expired accepts the deviation. */
    WAIVED
}
