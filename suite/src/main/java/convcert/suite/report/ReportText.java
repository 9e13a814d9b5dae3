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

    /** A diagnosis in words, or null for none: its causes with their scope, then where and how the results differ. */
    public static String diagnosis(Diagnosis d) {
        if (d == null) {
            return null;
        }
        return causes(d) + (d.findings().isEmpty() ? "" : "; where and how: " + findings(d));
    }

    /** The causes of a diagnosis with their scope and what they were checked on, or that none fits. */
    public static String causes(Diagnosis d) {
        String checked = d.wholeSpace() ? ", checked over every input of the case" : !d.sampled() ? ""
                : String.format(" (checked on %,d of the case's %,d mismatches and %,d of its %,d passes)", d.mismatches(),
                d.mismatchesOf(), d.passes(), d.passesOf());
        String causes;
        if (d.part() != null) {
            Diagnosis.Hypothesis h = d.part();
            causes = String.format("in part %s (%s): where %s it gives the %,d mismatches and no other result; not the %,d"
                    + " mismatches where %s", h.fault(), h.description(), h.scope(), h.explains(), d.mismatchesOf()
                    - h.explains(), h.elsewhere()) + checked;
        } else if (!d.complete()) {
            causes = "no cause of the catalogue gives these results";
        } else if (!d.scoped()) {
            causes = d.faults().stream().map(h -> h.fault() + " (" + h.description() + ")").collect(Collectors.joining(", or "))
                    + String.format(": %s all %,d mismatches and changes none of the %,d passes%s",
                    d.faults().size() > 1 ? "each gives" : "gives", d.mismatchesOf(), d.passesOf(), checked);
        } else {
            causes = d.faults().stream().map(h -> String.format("partly %s (%s): where %s it gives every result, all %,d "
                    + "mismatches among them; elsewhere it does not hold (it would change %,d passing vectors where %s)",
                    h.fault(), h.description(), h.scope(), h.explains(), h.changes(), h.elsewhere()))
                    .collect(Collectors.joining("; or ")) + checked;
        }
        return causes;
    }

    /** The findings of a diagnosis: "1,048,574: expected the largest finite, got NaN; ...". */
    public static String findings(Diagnosis d) {
        return d.findings().stream().map(f -> f.mismatches() > 0 ? String.format("%,d: %s", f.mismatches(), f.text()) : f.text())
                .collect(Collectors.joining("; "));
    }

    /** What a failing case is grouped under: the causes (scoped ones "partly ID"), or "unexplained". */
    public static String cause(Diagnosis d) {
        if (d == null || d.faults().isEmpty()) {
            return "unexplained";
        }
        if (!d.complete()) {
            return "in part " + d.part().fault();
        }
        return d.faults().stream().map(h -> h.scope() == null ? h.fault() : "partly " + h.fault())
                .collect(Collectors.joining(" or "));
    }

    /**
     * " [form sat, CTRL 60=0,48=1]": the form and CTRL bits the adapter was asked for; nothing for cases
     * without a form (memory cases) and, unless always, for a variant whose name says them already.
     */
    public static String variant(Entry e, boolean always) {
        if (!e.hasForm() || (!always && e.name().contains(" ["))) {
            return "";
        }
        return " [form " + e.form() + (e.ctrl() == null || e.ctrl().isEmpty() ? "" : ", CTRL " + e.ctrl()) + "]";
    }
}
