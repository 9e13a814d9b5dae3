package convcert.suite.report;

import convcert.suite.model.ConformanceReport.Entry;
import convcert.suite.model.Diagnosis;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.MismatchKind;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The words every writer uses for the run model's data: a first mismatch's line, a diagnosis, the
 * cause a failing case is grouped under, how a case's saturation was selected. One place, so the
 * console, HTML, JUnit XML, Allure and JSON say the same thing.
 */
public final class ReportText {

    private ReportText() {
    }

    /** "0x3C00 (1.0)". */
    public static String shown(Shown s) {
        return s.bits() + " (" + s.reads() + ")";
    }

    /** A first mismatch as one line. */
    public static String line(FirstMismatch m) {
        return switch (m) {
            case FirstMismatch.Value v -> "input " + shown(v.input()) + " [" + v.inputFields() + "]: expected "
                    + shown(v.expected()) + ", actual " + shown(v.actual()) + " [" + v.kind().label() + "]";
            case FirstMismatch.Flags f -> "input " + shown(f.input()) + " [" + f.inputFields() + "]: result " + shown(f.result())
                    + " right, flags expected " + f.expected() + ", actual " + f.actual() + " [" + MismatchKind.FLAGS.label() + "]";
            case FirstMismatch.Block b -> "block " + b.block() + ": " + b.wrong().stream()
                    .map(w -> w.part() + ": expected " + shown(w.expected()) + ", actual " + shown(w.actual()) + " ["
                            + w.kind().label() + "]").collect(Collectors.joining("; "))
                    + (b.moreWrong() > 0 ? "; and " + b.moreWrong() + " more" : "") + "; inputs [" + String.join(" ", b.inputs())
                    + "]";
            case FirstMismatch.Memory x -> "p=" + x.pointer() + " offset=" + x.offset() + (x.data() == null ? "" : " data="
                    + x.data()) + ": expected " + (x.expectedRefusal() != null ? x.expectedRefusal() : x.expectedBytes())
                    + ", actual " + (!x.answered() ? "no result" : x.actual() == null ? "refused" : x.actual());
        };
    }

    public static List<String> lines(List<FirstMismatch> mismatches) {
        return mismatches.stream().map(ReportText::line).toList();
    }

    /** A diagnosis in words, or null for none. */
    public static String diagnosis(Diagnosis d) {
        if (d == null) {
            return null;
        }
        String sampled = !d.sampled() ? "" : " (tried on " + (d.mismatches() < d.mismatchesOf() ? "the first " : "")
                + d.mismatches() + " of the case's " + d.mismatchesOf() + " mismatches and the first " + d.passes() + " of its "
                + d.passesOf() + " passes)";
        if (d.complete()) {
            return "all " + d.mismatches() + " mismatches, and none of the " + d.passes() + " passes, are explained by: "
                    + d.faults().stream().map(h -> h.fault() + " (" + h.description() + ")").collect(Collectors.joining("; or "))
                    + sampled;
        }
        Diagnosis.Hypothesis h = d.faults().getFirst();
        return "best partial explanation: " + h.fault() + " (" + h.description() + ") explains " + h.explains() + " of "
                + d.mismatches() + " mismatches and changes " + h.changes() + " of " + d.passes() + " passes" + sampled
                + (d.unexplained().isEmpty() ? "" : "; not explained: " + String.join(" ", d.unexplained())
                + (h.explains() + d.unexplained().size() < d.mismatches() ? " ..." : ""));
    }

    /** What a failing case is grouped under: the fault ids that explain it, "partial: ID", or "unexplained". */
    public static String cause(Diagnosis d) {
        if (d == null) {
            return "unexplained";
        }
        return d.complete() ? d.faults().stream().map(Diagnosis.Hypothesis::fault).collect(Collectors.joining(" or "))
                : "partial: " + d.faults().getFirst().fault();
    }

    /**
     * " [form sat, CTRL 60=0,48=1]": the form and CTRL bits the adapter was asked for; nothing for cases
     * without a form (memory cases) and, unless always, for a variant whose name says them already.
     */
    public static String variant(Entry e, boolean always) {
        if (e.form() == null || e.form().equals("-") || (!always && e.name().contains(" ["))) {
            return "";
        }
        return " [form " + e.form() + (e.ctrl() == null || e.ctrl().isEmpty() ? "" : ", CTRL " + e.ctrl()) + "]";
    }
}
