package convcert.suite.report;

import convcert.suite.model.ConformanceReport;
import convcert.suite.model.ConformanceReport.Entry;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The findings part of conformance.html: one table row per finding (a state's variants that fail
 * alike are one), filterable by pair, mismatch kind and diagnosis, then a section per finding grouped
 * by its diagnosis. The filters are a few lines of inline script over data attributes: without
 * scripts every finding stays shown, and the page stays one file.
 */
final class HtmlFindings {

    /** Findings up to this many are shown open; more, and the table is the overview and each section opens on demand. */
    private static final int OPEN = 5;

    private HtmlFindings() {
    }

    private static String esc(String s) {
        return HtmlReport.esc(s);
    }

    static void write(StringBuilder h, ConformanceReport r) {
        List<Findings.Finding> findings = Findings.of(r.cases());
        long notApplicable = ConformanceReport.count(r.cases(), Status.NOT_APPLICABLE);
        h.append("<h2>Findings</h2>\n");
        if (findings.isEmpty()) {
            h.append("<p>None: every case that applies passed.</p>\n<p>").append(notApplicable)
                    .append(" cases are not applicable: the adapter does not declare them.</p>\n");
            return;
        }
        filters(h, findings);
        table(h, findings);
        Map<String, List<Findings.Finding>> byCause = new TreeMap<>();
        findings.forEach(f -> byCause.computeIfAbsent(cause(f.shown()), k -> new ArrayList<>()).add(f));
        for (var group : byCause.entrySet()) {
            Entry first = group.getValue().getFirst().shown();
            if (byCause.size() > 1 || first.status() != Status.FAIL || first.diagnosis() != null) { // not all unexplained
                long cases = group.getValue().stream().mapToLong(f -> f.variants().size()).sum();
                h.append("<h3>").append(esc(group.getKey())).append(" (").append(group.getValue().size())
                        .append(group.getValue().size() == 1 ? " finding" : " findings").append(", ").append(cases)
                        .append(cases == 1 ? " case" : " cases").append(")</h3>\n");
            }
            for (Findings.Finding f : group.getValue()) {
                section(h, f, findings.size() <= OPEN);
            }
        }
        h.append("<p>").append(notApplicable).append(" cases are not applicable: the adapter does not declare them.</p>\n");
        h.append("<script>(function(){var f=document.getElementById('filters');f.hidden=false;")
                .append("function pick(){var p=document.getElementById('f-pair').value,k=document.getElementById('f-kind').value,")
                .append("c=document.getElementById('f-cause').value;document.querySelectorAll('.finding').forEach(function(e){")
                .append("var ok=(!p||e.dataset.pair===p)&&(!k||(' '+e.dataset.kinds+' ').indexOf(' '+k+' ')>=0)")
                .append("&&(!c||e.dataset.cause===c);e.style.display=ok?'':'none';});}")
                .append("f.querySelectorAll('select').forEach(function(s){s.onchange=pick;});})();</script>\n");
    }

    private static String cause(Entry e) {
        return e.status() == Status.FAIL ? ReportText.cause(e.diagnosis()) : e.status().name().toLowerCase(Locale.ROOT);
    }

    private static String attributes(Findings.Finding f) {
        Entry e = f.shown();
        return " data-pair=\"" + esc(e.pair()) + "\" data-kinds=\"" + e.kinds().keySet().stream().map(Enum::name)
                .collect(Collectors.joining(" ")) + "\" data-cause=\"" + esc(cause(e)) + "\"";
    }

    private static void filters(StringBuilder h, List<Findings.Finding> findings) {
        TreeSet<String> pairs = new TreeSet<>();
        TreeSet<MismatchKind> kinds = new TreeSet<>();
        TreeSet<String> causes = new TreeSet<>();
        for (Findings.Finding f : findings) {
            pairs.add(f.shown().pair());
            kinds.addAll(f.shown().kinds().keySet());
            causes.add(cause(f.shown()));
        }
        h.append("<p id=\"filters\" hidden>Show: ");
        select(h, "f-pair", "every pair", pairs.stream().map(p -> new String[] {p, p}).toList());
        select(h, "f-kind", "every kind", kinds.stream().map(k -> new String[] {k.name(), k.label()}).toList());
        select(h, "f-cause", "every diagnosis", causes.stream().map(c -> new String[] {c, c}).toList());
        h.append("</p>\n");
    }

    private static void select(StringBuilder h, String id, String all, List<String[]> options) {
        h.append("<select id=\"").append(id).append("\"><option value=\"\">").append(all).append("</option>");
        options.forEach(o -> h.append("<option value=\"").append(esc(o[0])).append("\">").append(esc(o[1])).append("</option>"));
        h.append("</select> ");
    }

    private static void table(StringBuilder h, List<Findings.Finding> findings) {
        h.append("<table class=\"findings\"><tr><th>status</th><th>finding</th><th>variants</th><th class=\"num\">mismatches</th>")
                .append("<th>kinds</th><th>diagnosis</th></tr>\n");
        for (Findings.Finding f : findings) {
            Entry e = f.shown();
            h.append("<tr class=\"finding\"").append(attributes(f)).append("><td><span class=\"chip ").append(e.status())
                    .append("\">").append(esc(e.status().name())).append("</span></td><td><a href=\"#")
                    .append(HtmlReport.anchor(e.name())).append("\">").append(esc(f.name())).append("</a></td><td class=\"num\">")
                    .append(f.variants().size()).append("</td><td class=\"num\">")
                    .append(e.vectors() > 0 ? e.mismatches() + " of " + e.vectors() : "-").append("</td><td>")
                    .append(esc(e.kinds().keySet().stream().map(MismatchKind::label).collect(Collectors.joining(", "))))
                    .append("</td><td>").append(esc(cause(e))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void section(StringBuilder h, Findings.Finding f, boolean open) {
        Entry e = f.shown();
        h.append("<details class=\"finding\"").append(attributes(f)).append(open ? " open" : "").append(" id=\"")
                .append(HtmlReport.anchor(e.name())).append("\"><summary><span class=\"chip ")
                .append(e.status()).append("\">").append(esc(e.status().name())).append("</span> <b>").append(esc(f.name()))
                .append("</b>").append(f.variants().size() > 1 ? "" : esc(ReportText.variant(e, true)))
                .append(e.vectors() > 0 ? ": " + e.mismatches() + " of " + e.vectors() + " vectors differ " : "")
                .append(e.kinds().isEmpty() ? "" : esc(e.kinds().toString())).append("</summary>\n");
        if (f.variants().size() > 1) {
            h.append("<p>Alike in ").append(f.variants().size()).append(" variants: ").append(esc(String.join("; ",
                    f.variants().stream().map(Findings::variant).toList()))).append("</p>\n");
        }
        if (e.message() != null) {
            h.append("<pre>").append(esc(e.message())).append("</pre>\n");
        }
        if (e.waiver() != null) {
            h.append("<p>Waiver: ").append(esc(e.waiver())).append("</p>\n");
        }
        if (e.diagnosis() != null) {
            h.append("<p class=\"diagnosis\"><b>Diagnosis:</b> ").append(esc(ReportText.diagnosis(e.diagnosis())))
                    .append("</p>\n");
        }
        if (e.inputMap() != null) {
            HtmlInputMap.render(h, e.inputMap());
        } else if (!e.where().isEmpty()) {
            where(h, e.where(), e.mismatches());
        }
        if (!e.firstMismatches().isEmpty()) {
            h.append("<pre>").append(esc(String.join("\n", ReportText.lines(e.firstMismatches())))).append("</pre>\n");
        }
        if (!e.rules().isEmpty()) {
            h.append("<p>The expected value of the first mismatch is decided by:</p><pre>")
                    .append(esc(String.join("\n", e.rules()))).append("</pre>\n");
        }
        h.append("</details>\n");
    }

    /** Where the mismatches fall: a bar per input binade (inline SVG), labels at least 48 px apart. */
    private static void where(StringBuilder h, Map<String, Long> bins, long mismatches) {
        long kept = bins.values().stream().mapToLong(Long::longValue).sum();
        long max = bins.values().stream().mapToLong(Long::longValue).max().orElse(1);
        int bar = Math.max(6, Math.min(24, 600 / bins.size()));
        int every = Math.max(1, (48 + bar - 1) / bar);
        int width = Math.max(120, bins.size() * bar + 60);
        h.append("<p>Mismatching inputs per input binade").append(kept < mismatches
                ? String.format(java.util.Locale.ROOT, " (the %,d of %,d kept for the diagnosis, lowest inputs first)", kept, mismatches)
                : "").append(":</p><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width).append("\" height=\"110\" role=\"img\" aria-label=\"mismatches per input binade\">");
        int i = 0;
        for (var b : bins.entrySet()) {
            long height = Math.max(1, 70 * b.getValue() / max);
            int x = 20 + i * bar;
            h.append("<rect x=\"").append(x).append("\" y=\"").append(80 - height).append("\" width=\"").append(bar - 2)
                    .append("\" height=\"").append(height).append("\" fill=\"#c62828\"><title>").append(esc(b.getKey()))
                    .append(": ").append(b.getValue()).append("</title></rect>");
            boolean last = i == bins.size() - 1;
            if ((i % every == 0 && (last || bins.size() - 1 - i >= every)) || last) {
                h.append("<text x=\"").append(x).append("\" y=\"98\" font-size=\"10\">").append(esc(b.getKey()))
                        .append("</text>");
            }
            i++;
        }
        h.append("</svg>\n");
    }
}
