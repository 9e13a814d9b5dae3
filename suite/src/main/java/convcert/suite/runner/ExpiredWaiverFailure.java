package convcert.suite.runner;

import org.opentest4j.AssertionFailedError;

/** The failure message of a failing case whose waiver has expired: the gate no longer accepts it. */
public final class ExpiredWaiverFailure extends AssertionFailedError {

    ExpiredWaiverFailure(CaseResult r, Waivers.Waiver w, String adapter) {
        super("waiver " + w.pattern() + " (" + w.location() + ") expired on " + w.expires() + ": " + w.reason() + "\n"
                + MismatchFailure.message(r, adapter));
    }
}
