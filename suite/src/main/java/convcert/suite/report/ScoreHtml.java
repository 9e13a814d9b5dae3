package convcert.suite.report;

import convcert.suite.model.FaultScore;

/** score.html: the fault score as one self-contained page. */
public final class ScoreHtml {

    private ScoreHtml() {
    }

    /** score.html: one self-contained page, a row per fault, escaped like the certification report. */
    public static String html(FaultScore s) {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>convcert "
                + "fault score</title><style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:"
                + "collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}th{background:#f4f4f4;"
                + "text-align:left}.caught{color:#2e7d32}.ESCAPED{color:#c62828;font-weight:bold}.na,.undetectable"
                + "{color:#757575}</style></head><body>\n");
        h.append("<h1>Fault score ").append(s.caught()).append("/").append(s.total()).append("</h1>\n<p>Profile <code>")
                .append(esc(s.profile())).append("</code>, vectors <code>").append(esc(s.vectors())).append("</code></p>\n")
                .append("<table><tr><th>fault</th><th>family</th><th>result</th><th>caught by</th><th>what it is</th></tr>\n");
        for (FaultScore.Outcome o : s.faults()) {
            String css = o.result() == FaultScore.Result.NOT_APPLICABLE ? "na" : o.result().toString();
            h.append("<tr><td><code>").append(esc(o.id())).append("</code></td><td>").append(esc(o.family()))
                    .append("</td><td class=\"").append(css).append("\">").append(esc(o.result().toString())).append("</td><td>")
                    .append(o.caughtBy().size() > 0 ? o.caughtBy().size() + " cases: " + esc(String.join(", ",
                            o.caughtBy().subList(0, Math.min(5, o.caughtBy().size())))) + (o.caughtBy().size() > 5 ? ", ..." : "")
                            : esc(o.why())).append("</td><td>").append(esc(o.description())).append("</td></tr>\n");
        }
        return h.append("</table>\n</body></html>\n").toString();
    }

    private static String esc(String s) {
        return Markup.escape(s, true);
    }

}
