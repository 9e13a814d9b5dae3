package convcert.suite.report;

import convcert.suite.model.ConformanceReport.Entry;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.Status;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What certify and report merge print: the pair matrix, then what a CI log reader acts on, then the verdict. */
public final class ConsoleReport {

    /** Maximum findings (a state's variants that fail alike are one) the console lists; the reports list them all. */
    static final int LISTED_CASES = 20;

    private ConsoleReport() {
    }

    /** Matrix and findings; only and pairs: the run's selection, named when it selected nothing. */
    public static void print(ConformanceReport r, PrintWriter out, String only, List<String> pairs) {
        matrix(r, out);
        findings(r, out, only, pairs);
    }

    static void matrix(ConformanceReport r, PrintWriter out) {
        out.printf("%-26s %5s %5s %5s %5s %5s %10s %10s%n", "pair", "pass", "fail", "n/a", "error", "waive", "vectors",
                "mismatches");
        r.cases().stream().map(Entry::pair).distinct().sorted().forEach(pair -> {
            List<Entry> cases = r.cases().stream().filter(e -> e.pair().equals(pair)).toList();
            out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", pair, count(cases, Status.PASS), count(cases, Status.FAIL),
                    count(cases, Status.NOT_APPLICABLE), count(cases, Status.ADAPTER_ERROR) + count(cases, Status.ERROR),
                    count(cases, Status.WAIVED), cases.stream().mapToLong(Entry::vectors).sum(),
                    cases.stream().mapToLong(Entry::mismatches).sum());
        });
        var s = r.summary();
        out.printf("%-26s %5d %5d %5d %5d %5d %10d %10d%n", "total (" + s.cases() + " cases)", s.passed(), s.failed(),
                s.notApplicable(), s.adapterErrors() + s.errors(), s.waived(), s.vectors(),
                s.mismatches() + s.waivedMismatches());
    }

    /**
     * Declared capabilities that match nothing, notes on the expected values, an empty selection, and
     * each case that did not pass with its first mismatch or message.
     */
    static void findings(ConformanceReport r, PrintWriter out, String only, List<String> pairs) {
        if (!r.unmatched().isEmpty()) {
            out.println("warning: " + r.unmatched().size() + " of " + r.declared().size() + " declared capabilities match "
                    + "no case of profile " + r.profile() + " (a misspelt type, rounding or state?):");
            r.unmatched().forEach(c -> out.println("  " + Markup.console(c)));
        }
        r.notes().forEach(n -> out.println("note: " + Markup.console(n)));
        r.documents().forEach(d -> out.println("text: " + Markup.console(d)));
        if (r.cases().isEmpty()) {
            String selection = Stream.of(only == null ? null : "--only '" + only + "'",
                    pairs.isEmpty() ? null : "--pair " + String.join(" --pair ", pairs)).filter(x -> x != null)
                    .collect(Collectors.joining(" with "));
            out.println("nothing selected: " + (selection.isEmpty() ? "the vectors hold no case of profile " + r.profile()
                    + " (only ascend-c's golden set is committed; --level ci generates and certifies any profile's)"
                    : selection + " selects no case of profile " + r.profile()));
        }
        List<Entry> bad = r.cases().stream().filter(e -> e.status().finding()).toList();
        List<Findings.Finding> findings = Findings.of(r.cases());
        findings.stream().limit(LISTED_CASES).forEach(f -> {
            Entry e = f.shown();
            out.println(e.status() + " " + f.name() + (f.variants().size() > 1 ? "" : ReportText.variant(e, false))
                    + (e.mismatches() > 0 ? ": " + e.mismatches() + " of " + e.vectors() + " vectors differ " + e.kinds() : ""));
            if (f.variants().size() > 1) {
                out.println("    alike in " + f.variants().size() + " variants: " + String.join("; ",
                        f.variants().stream().map(Findings::variant).toList()));
            }
            if (e.message() != null) {
                Markup.console(e.message()).lines().forEach(line -> out.println("    " + line));
            }
            if (!e.firstMismatches().isEmpty()) {
                out.println("    first: " + Markup.console(ReportText.line(e.firstMismatches().getFirst())));
            }
            if (e.diagnosis() != null) {
                out.println("    diagnosis" + (e.diagnosis().millis() >= 1000 ? String.format(" (%.1f s, beside the case's %.1f s)",
                        e.diagnosis().millis() / 1000.0, e.millis() / 1000.0) : "") + ": " + ReportText.causes(e.diagnosis()));
                if (!e.diagnosis().findings().isEmpty()) {
                    out.println("    where and how: " + ReportText.findings(e.diagnosis()));
                }
            }
        });
        if (findings.size() > LISTED_CASES) {
            out.println("... and " + (findings.size() - LISTED_CASES) + " more findings (see the reports)");
        }
        Map<String, Long> byCause = new TreeMap<>();
        for (Entry e : bad) {
            if (e.status() == Status.FAIL) {
                byCause.merge(ReportText.cause(e.diagnosis()), 1L, Long::sum);
            }
        }
        if (!byCause.isEmpty()) {
            out.println("failing cases by diagnosis: " + byCause.entrySet().stream().map(x -> x.getKey() + " " + x.getValue())
                    .collect(Collectors.joining(", ")));
        }
    }

    private static int count(List<Entry> cases, Status status) {
        return ConformanceReport.count(cases, status);
    }
}
