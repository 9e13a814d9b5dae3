package convcert.suite.report;

import convcert.suite.model.ConformanceReport;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Provenance;
import convcert.suite.model.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * conformance.html: one self-contained page (no scripts, no external files). The pair x rounding
 * matrix with one coloured chip per saturation state, the mismatch kinds as a bar chart, and a
 * section per case that did not pass. Everything that comes from the adapter is escaped.
 */
public final class HtmlReport {

    public static final String FILE = "conformance.html";
    private static final List<String> MODES = List.of("rn", "rd", "ru", "rna", "rz", "ro", "rh");

    private HtmlReport() {
    }

    public static void write(ConformanceReport report, Path folder) throws IOException {
        Files.createDirectories(folder);
        Path temp = folder.resolve("." + FILE + ".partial");
        Files.writeString(temp, render(report), StandardCharsets.UTF_8);
        Files.move(temp, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String esc(String s) {
        return Markup.escape(s, true);
    }

    static String anchor(String name) {
        return "case-" + name.replaceAll("[^A-Za-z0-9]", "_");
    }

    static String render(ConformanceReport r) {
        ConformanceReport.Summary s = r.summary();
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>convcert: ")
                .append(esc(r.adapter())).append(" against ").append(esc(r.profile())).append("</title>\n<style>\n")
                .append("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.4em;overflow-wrap:anywhere}")
                .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}")
                .append("th{background:#f4f4f4;text-align:left}.chip{display:inline-block;border-radius:3px;padding:1px 5px;")
                .append("margin:1px;font-size:12px;color:#fff;text-decoration:none}.PASS{background:#2e7d32}")
                .append(".FAIL{background:#c62828}.NOT_APPLICABLE{background:#9e9e9e}.ADAPTER_ERROR{background:#6a1b9a}")
                .append(".WAIVED{background:#ef6c00}.ERROR{background:#4e342e}.NOT_RUN{background:#455a64}.warn{color:#b71c1c}")
                .append("code,pre{font:12px ui-monospace,monospace}pre{background:#f7f7f7;")
                .append("padding:6px;overflow-x:auto}.num{text-align:right}")
                .append(".matrix tr:first-child th{position:sticky;top:0;z-index:1}summary{cursor:pointer}")
                .append("details.finding{margin:.4em 0}#filters select{margin-right:.5em}")
                // On a phone a wide table scrolls by itself instead of widening the page.
                .append("@media (max-width:700px){body{margin:.6em}table{display:block;overflow-x:auto}}\n</style></head><body>\n");
        ConformanceReport.Verdict verdict = r.verdict();
        h.append("<h1>").append(esc(r.adapter())).append(" certified against profile ").append(esc(r.profile()))
                .append("</h1>\n<p class=\"gate\">Gate (exit ").append(verdict.exitCode()).append("): <b>")
                .append(esc(verdict.line())).append("</b></p>\n");
        if (r.partial()) {
            h.append("<p class=\"warn\"><b>Partial report:</b> the run was interrupted; cases marked NOT_RUN did not finish.</p>\n");
        }
        provenance(h, r);
        for (String note : r.notes()) { // a draft profile's notice stands out
            h.append(note.startsWith("DRAFT: ") ? "<p class=\"warn\"><b>Draft.</b> " + esc(note.substring(7))
                    : "<p>Note: " + esc(note)).append("</p>\n");
        }
        if (!r.unmatched().isEmpty()) {
            h.append("<p class=\"warn\">").append(r.unmatched().size()).append(" of ").append(r.declared().size())
                    .append(" declared capabilities match no case of the profile:</p><pre>")
                    .append(esc(String.join("\n", r.unmatched()))).append("</pre>\n");
        }
        h.append("<table><tr><th>cases</th><th>pass</th><th>fail</th><th>not applicable</th><th>adapter error</th>")
                .append("<th>error</th><th>waived</th><th>not run</th><th>vectors</th><th>certified vectors</th>")
                .append("<th>mismatches</th><th>waived mismatches</th></tr><tr>")
                .append(numCell(s.cases())).append(numCell(s.passed())).append(numCell(s.failed()))
                .append(numCell(s.notApplicable())).append(numCell(s.adapterErrors())).append(numCell(s.errors()))
                .append(numCell(s.waived())).append(numCell(s.notRun())).append(numCell(s.vectors()))
                .append(numCell(s.certifiedVectors())).append(numCell(s.mismatches())).append(numCell(s.waivedMismatches()))
                .append("</tr></table>\n");
        h.append("<p>Chips: <span class=\"chip PASS\">pass</span><span class=\"chip FAIL\">fail</span>")
                .append("<span class=\"chip NOT_APPLICABLE\">not applicable</span><span class=\"chip ADAPTER_ERROR\">adapter error</span>")
                .append("<span class=\"chip ERROR\">error</span><span class=\"chip WAIVED\">waived</span>")
                .append("<span class=\"chip NOT_RUN\">not run</span>, one per saturation state; &times;N: the state was ")
                .append("certified through N forms and CTRL settings (variants), the worst of them shown.</p>\n");
        HtmlFindings.write(h, r); // what failed first: the reason a reader opens the page
        matrix(h, r);
        kinds(h, s.kinds());
        h.append("</body></html>\n");
        return h.toString();
    }

    private static void provenance(StringBuilder h, ConformanceReport r) {
        Provenance p = r.provenance();
        h.append("<table class=\"provenance\">");
        row(h, "implementation", p == null ? null : p.implementation());
        row(h, "vectors", r.source() + (p == null ? "" : " (" + p.vectors() + ")"));
        row(h, "shard", r.shard());
        row(h, "spec tables", "sha256 " + r.tables());
        row(h, "decisions", r.decisions().toString());
        for (String document : r.documents()) { // the texts certified against, each with its version
            row(h, "text", document);
        }
        row(h, "date (UTC)", p == null ? null : p.date());
        row(h, "convcert", r.tool());
        row(h, "JDK, OS, host", p == null ? null : p.jdk() + "; " + p.os() + "; " + p.host());
        h.append("</table>\n");
    }

    private static void row(StringBuilder h, String name, String value) {
        if (value != null) {
            h.append("<tr><th>").append(esc(name)).append("</th><td><code>").append(esc(value)).append("</code></td></tr>");
        }
    }

    private static String numCell(long n) {
        return "<td class=\"num\">" + n + "</td>";
    }

    private static void matrix(StringBuilder h, ConformanceReport r) {
        Map<String, Map<String, List<ConformanceReport.Entry>>> grid = new TreeMap<>();
        for (ConformanceReport.Entry e : r.cases()) {
            grid.computeIfAbsent(e.pair(), k -> new LinkedHashMap<>()).computeIfAbsent(e.rounding(), k -> new ArrayList<>())
                    .add(e);
        }
        List<String> modes = new ArrayList<>(MODES.stream().filter(m -> r.cases().stream().anyMatch(e -> e.rounding().equals(m)))
                .toList());
        r.cases().stream().map(ConformanceReport.Entry::rounding).filter(m -> !MODES.contains(m)).distinct().sorted()
                .forEach(modes::add); // OpenCL memory cases: vector widths
        // Pairs the implementation does not declare at all fold into one line.
        List<String> undeclared = grid.entrySet().stream().filter(x -> x.getValue().values().stream().flatMap(List::stream)
                .allMatch(e -> e.status() == Status.NOT_APPLICABLE)).map(Map.Entry::getKey).toList();
        undeclared.forEach(grid::remove);
        h.append("<h2>Matrix</h2>\n<details open><summary>").append(grid.size()).append(" pairs by rounding mode, a chip per "
                + "saturation state</summary>\n<table class=\"matrix\"><tr><th>pair</th>");
        modes.forEach(m -> h.append("<th>").append(esc(m)).append("</th>"));
        h.append("</tr>\n");
        grid.forEach((pair, byMode) -> {
            h.append("<tr><th>").append(esc(pair)).append("</th>");
            for (String m : modes) {
                h.append("<td>");
                // One chip per state: its variants (forms and CTRL settings) folded in, the worst status shown.
                Map<String, List<ConformanceReport.Entry>> byState = new LinkedHashMap<>();
                byMode.getOrDefault(m, List.of()).forEach(e -> byState.computeIfAbsent(e.state(), k -> new ArrayList<>()).add(e));
                byState.forEach((state, variants) -> {
                    Status status = variants.stream().map(ConformanceReport.Entry::status).reduce(Status::worse)
                            .orElseThrow();
                    ConformanceReport.Entry shown = variants.stream().filter(e -> e.status() == status).findFirst()
                            .orElseThrow();
                    // the worst variant's counts: variants test the same vectors, so their counts do not add up
                    String text = esc(state) + (variants.size() > 1 ? " &times;" + variants.size() : "")
                            + (status == Status.FAIL || status == Status.WAIVED ? " " + shown.mismatches() + "/" + shown.vectors()
                            : status == Status.PASS ? " " + shown.vectors() : "");
                    StringBuilder title = new StringBuilder();
                    variants.forEach(e -> title.append(title.isEmpty() ? "" : "\n").append(e.name()).append(": ")
                            .append(e.status()));
                    boolean linked = status.finding();
                    h.append(linked ? "<a class=\"chip " : "<span class=\"chip ").append(status).append("\"")
                            .append(linked ? " href=\"#" + anchor(shown.name()) + "\"" : "").append(" title=\"")
                            .append(esc(title.toString())).append("\">").append(text).append(linked ? "</a>" : "</span>");
                });
                h.append("</td>");
            }
            h.append("</tr>\n");
        });
        if (!undeclared.isEmpty()) {
            h.append("<tr><td colspan=\"").append(modes.size() + 1).append("\"><details><summary>").append(undeclared.size())
                    .append(" pairs not declared by the adapter (every case not applicable)</summary><code>")
                    .append(esc(String.join(" ", undeclared))).append("</code></details></td></tr>\n");
        }
        h.append("</table>\n</details>\n");
    }

    private static void kinds(StringBuilder h, Map<MismatchKind, Long> kinds) {
        h.append("<h2>Mismatch kinds</h2>\n");
        if (kinds.isEmpty()) {
            h.append("<p>No mismatches.</p>\n");
            return;
        }
        long max = kinds.values().stream().mapToLong(Long::longValue).max().orElse(1);
        int row = 0;
        h.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"").append(24 * kinds.size() + 8)
                .append("\" role=\"img\" aria-label=\"mismatch kinds\">\n");
        for (var k : kinds.entrySet()) {
            int y = 4 + 24 * row++;
            long w = Math.max(1, 400 * k.getValue() / max);
            h.append("<text x=\"0\" y=\"").append(y + 14).append("\" font-size=\"12\">").append(esc(k.getKey().label())).append("</text>")
                    .append("<rect x=\"170\" y=\"").append(y).append("\" width=\"").append(w)
                    .append("\" height=\"18\" fill=\"#c62828\"/><text x=\"").append(176 + w).append("\" y=\"").append(y + 14)
                    .append("\" font-size=\"12\">").append(k.getValue()).append("</text>\n");
        }
        h.append("</svg>\n");
    }
}
