package convcert.suite.junit;

import convcert.common.Sha256;
import convcert.spi.CaseKey;
import convcert.suite.model.CaseResult;
import convcert.suite.runner.Planned;
import convcert.suite.runner.SuiteRun;
import io.qameta.allure.Allure;
import java.nio.charset.StandardCharsets;
import org.opentest4j.TestAbortedException;

/**
 * A case as a JUnit test: its Allure labels, then the run's result as the test's outcome. PASS passes;
 * not applicable and waived cases are aborted (skipped); mismatches fail (MismatchFailure, with the
 * message attached in Allure); a case that did not run to its end is an error (AdapterFailure).
 */
final class CaseOutcome {

    private CaseOutcome() {
    }

    static void run(SuiteRun run, Planned p) {
        label(p.key());
        CaseResult r = run.execute(p);
        String adapter = run.config().adapterSpec();
        switch (r.status()) {
            case PASS -> { }
            case NOT_APPLICABLE -> throw new TestAbortedException("not applicable: " + adapter + " does not implement "
                    + r.key().name());
            case WAIVED -> {
                attach(r, adapter);
                throw new TestAbortedException("waived: " + r.message());
            }
            case FAIL -> {
                attach(r, adapter);
                throw new MismatchFailure(r, adapter);
            }
            case ADAPTER_ERROR, ERROR, NOT_RUN -> throw new AdapterFailure(r, adapter);
        }
    }

    /**
     * History and test-case ids from the case's name, not its position in the plan: a run with other
     * pairs selected still continues each case's history.
     */
    private static void label(CaseKey key) {
        String digest = Sha256.of((key.profile() + "/" + key.name()).getBytes(StandardCharsets.UTF_8));
        Allure.getLifecycle().updateTestCase(t -> t.setHistoryId(digest).setTestCaseId(digest).setName(key.name()));
        Allure.epic(key.profile());
        Allure.feature(key.pair());
        Allure.story(key.rounding() + " " + key.state());
    }

    private static void attach(CaseResult r, String adapter) {
        Allure.addAttachment("mismatches", "text/plain", MismatchFailure.message(r, adapter), ".txt");
    }
}
