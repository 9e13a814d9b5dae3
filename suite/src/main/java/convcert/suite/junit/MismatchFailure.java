package convcert.suite.junit;

import convcert.suite.model.CaseResult;
import convcert.suite.report.ReportText;
import org.opentest4j.AssertionFailedError;

/**
 * The failure message of a case whose vectors differ: why it is not waived (an expired waiver), count,
 * first mismatches, deciding table rows.
 */
public final class MismatchFailure extends AssertionFailedError {

    MismatchFailure(CaseResult r, String adapter) {
        super(message(r, adapter));
    }

    static String message(CaseResult r, String adapter) {
        StringBuilder b = new StringBuilder();
        if (r.message() != null) {
            b.append(r.message()).append('\n');
        }
        b.append(r.key().name()).append(": ").append(adapter).append(" differs from the reference on ")
                .append(r.mismatches()).append(" of ").append(r.vectors()).append(" vectors ").append(r.kinds()).append('\n');
        b.append("first ").append(r.firstMismatches().size()).append(":\n");
        ReportText.lines(r.firstMismatches()).forEach(line -> b.append("  ").append(line).append('\n'));
        if (r.diagnosis() != null) {
            b.append("diagnosis: ").append(ReportText.diagnosis(r.diagnosis())).append('\n');
        }
        if (!r.rules().isEmpty()) {
            b.append("the expected value of the first is decided by:\n");
            r.rules().forEach(rule -> b.append("  ").append(rule).append('\n'));
        }
        return b.toString();
    }
}
