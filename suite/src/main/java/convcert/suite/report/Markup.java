package convcert.suite.report;

/** Escaping for the HTML and XML reports: everything an adapter supplies goes through here. */
public final class Markup {

    private Markup() {
    }

    /** Escapes &lt; &amp; and quotes; with html also &gt; and apostrophes. Control characters become U+FFFD. */
    public static String escape(String s, boolean html) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '>' -> b.append(html ? "&gt;" : ">");
                case '\'' -> b.append(html ? "&#39;" : "'");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? '\uFFFD' : c);
            }
        }
        return b.toString();
    }
}
