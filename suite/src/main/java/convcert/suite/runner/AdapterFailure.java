package convcert.suite.runner;

/** The failure message of a case the adapter could not answer (crash, hang, garbage, wrong count). */
public final class AdapterFailure extends AssertionError {

    AdapterFailure(CaseResult r, String adapter) {
        super(r.key().name() + ": adapter " + adapter + " failed: " + r.message());
    }
}
