package convcert.suite.report;

import convcert.suite.model.ConformanceReport;
import convcert.suite.model.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JUnit XML (the Ant/Surefire schema CI systems read): one testsuite per pair, one testcase per
 * (rounding, saturation state). Failures are mismatches, errors adapter failures, skipped the cases
 * that do not apply or are waived. Written from the results rather than by the Platform's legacy
 * listener, whose names for dynamic tests ("conformance()[3][1]") say nothing on a dashboard. A
 * shard's test names end in " [shard K/N]".
 */
public final class JUnitXmlReport {

    private JUnitXmlReport() {
    }

    public static Path write(ConformanceReport r, Path folder) throws IOException {
        Files.createDirectories(folder);
        // A shard's cases carry the shard in their names and file: CI test views collect the XML of every
        // shard job of a pipeline into one list, where equal names would collide or be counted once.
        String shard = r.shard() == null ? "" : " [shard " + r.shard() + "]";
        String name = "TEST-convcert-" + r.adapter().replaceAll("[^A-Za-z0-9._-]", "_")
                + (r.shard() == null ? "" : "-shard-" + r.shard().replace("/", "-of-")) + ".xml";
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        var s = r.summary();
        x.append(String.format(Locale.ROOT, "<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\">%n",
                esc("convcert " + r.adapter() + " against " + r.profile() + (r.partial() ? " (partial: interrupted)" : "")),
                s.cases(), s.failed(), s.adapterErrors() + s.errors() + s.notRun()));
        for (String pair : r.cases().stream().map(ConformanceReport.Entry::pair).distinct().sorted().toList()) {
            List<ConformanceReport.Entry> cases = r.cases().stream().filter(e -> e.pair().equals(pair)).toList();
            x.append(String.format(Locale.ROOT,
                    "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">%n",
                    esc(r.profile() + "." + pair + shard), cases.size(), count(cases, Status.FAIL),
                    count(cases, Status.ADAPTER_ERROR) + count(cases, Status.ERROR) + count(cases, Status.NOT_RUN),
                    count(cases, Status.NOT_APPLICABLE) + count(cases, Status.WAIVED),
                    cases.stream().mapToLong(ConformanceReport.Entry::millis).sum() / 1000.0));
            x.append(properties(r));
            for (ConformanceReport.Entry e : cases) {
                x.append(String.format(Locale.ROOT, "    <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\"",
                        esc(r.profile() + "." + pair), esc(e.name().substring(pair.length() + 1) + shard), e.millis() / 1000.0));
                switch (e.status()) {
                    case PASS -> x.append("/>\n");
                    case FAIL -> x.append(">\n      <failure type=\"mismatch\" message=\"").append(esc(e.mismatches()
                            + " of " + e.vectors() + " vectors differ" + (e.message() == null ? "" : "; " + e.message())
                            + (e.diagnosis() == null ? "" : "; diagnosis: " + ReportText.diagnosis(e.diagnosis()))))
                            .append("\">").append(esc(details(e))).append("</failure>\n    </testcase>\n");
                    case ADAPTER_ERROR, ERROR, NOT_RUN -> x.append(">\n      <error type=\"")
                            .append(e.status().name().toLowerCase(Locale.ROOT)).append("\" message=\"").append(esc(e.message()))
                            .append("\">").append(esc(details(e))).append("</error>\n    </testcase>\n");
                    case WAIVED -> x.append(">\n      <skipped message=\"").append(esc("waived: " + e.message()))
                            .append("\">").append(esc(details(e))).append("</skipped>\n    </testcase>\n");
                    case NOT_APPLICABLE -> x.append(">\n      <skipped message=\"not applicable: the adapter does not implement it\"/>\n"
                            + "    </testcase>\n");
                }
            }
            x.append("  </testsuite>\n");
        }
        x.append("</testsuites>\n");
        Path temp = folder.resolve("." + name + ".partial");
        Files.writeString(temp, x, StandardCharsets.UTF_8);
        return Files.move(temp, folder.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** What CI dashboards show beside a suite: the adapter, profile, tables, decisions, source, shard. */
    private static String properties(ConformanceReport r) {
        StringBuilder b = new StringBuilder("    <properties>\n");
        Map<String, String> p = new LinkedHashMap<>();
        p.put("convcert.adapter", r.adapter());
        p.put("convcert.profile", r.profile());
        p.put("convcert.tables", r.tables());
        p.put("convcert.source", r.source());
        if (r.shard() != null) {
            p.put("convcert.shard", r.shard());
        }
        p.put("convcert.partial", String.valueOf(r.partial()));
        r.decisions().forEach((id, option) -> p.put("convcert.decision." + id, option));
        for (int i = 0; i < r.documents().size(); i++) {
            p.put("convcert.document." + (i + 1), r.documents().get(i));
        }
        for (int i = 0; i < r.notes().size(); i++) { // a draft profile's notice among them
            p.put("convcert.note." + (i + 1), r.notes().get(i));
        }
        p.forEach((k, v) -> b.append("      <property name=\"").append(esc(k)).append("\" value=\"")
                .append(esc(v == null ? "" : v)).append("\"/>\n"));
        return b.append("    </properties>\n").toString();
    }

    private static String details(ConformanceReport.Entry e) {
        StringBuilder b = new StringBuilder();
        if (e.hasForm()) {
            b.append("form ").append(e.form()).append(e.ctrl() == null || e.ctrl().isEmpty() ? "" : ", CTRL " + e.ctrl())
                    .append('\n');
        }
        if (e.waiver() != null) {
            b.append("waiver: ").append(e.waiver()).append('\n');
        }
        if (e.diagnosis() != null) {
            b.append("diagnosis: ").append(ReportText.diagnosis(e.diagnosis())).append('\n');
        }
        ReportText.lines(e.firstMismatches()).forEach(m -> b.append(m).append('\n'));
        if (!e.rules().isEmpty()) {
            b.append("the expected value of the first is decided by:\n");
            e.rules().forEach(rule -> b.append("  ").append(rule).append('\n'));
        }
        return b.toString();
    }

    private static int count(List<ConformanceReport.Entry> cases, Status status) {
        return ConformanceReport.count(cases, status);
    }

    /** '>' may stand in XML attributes and text, and pairs read better with it ("float->half"). */
    private static String esc(String s) {
        return Markup.escape(s, false);
    }
}
