package convcert.suite.junit;

import convcert.suite.model.CaseResult;

/**
 * The failure of a case that did not run to its end: the adapter crashed, hung or answered garbage,
 * the case's vectors could not be read, or an interrupt cut it. Not an assertion: JUnit and Allure
 * report it as an error (broken), distinct from mismatches.
 */
public final class AdapterFailure extends RuntimeException {

    AdapterFailure(CaseResult r, String adapter) {
        super(r.key().name() + ": " + switch (r.status()) {
            case ADAPTER_ERROR -> "adapter " + adapter + " failed: ";
            case NOT_RUN -> "not run: ";
            default -> "error: ";
        } + r.message(), null, false, false);
    }
}
