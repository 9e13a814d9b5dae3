package convcert.suite.report;

/**
 * Escaping for the reports: everything an adapter, a device or a user's file supplies goes through
 * here before it is written, so any text makes a well-formed page, XML file, properties file and
 * console line.
 */
public final class Markup {

    private Markup() {
    }

    /**
     * Escapes &lt; &amp; and quotes; with html also &gt; and apostrophes, and in XML the &gt; that would
     * close "]]&gt;". Characters XML 1.0 cannot carry (control characters but tab and line feed, U+FFFE,
     * U+FFFF, unpaired surrogates) become U+FFFD, the replacement character, which says so where it stands.
     */
    public static String escape(String s, boolean html) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '>' -> b.append(html || (i >= 2 && s.charAt(i - 1) == ']' && s.charAt(i - 2) == ']') ? "&gt;" : ">");
                case '\'' -> b.append(html ? "&#39;" : "'");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else {
                        b.append(carried(c) ? c : '\uFFFD');
                    }
                }
            }
        }
        return b.toString();
    }

    /** Whether XML 1.0 carries the (non-surrogate-pair) character. */
    private static boolean carried(char c) {
        return (c >= 0x20 || c == '\n' || c == '\t') && c != '\uFFFE' && c != '\uFFFF' && !Character.isSurrogate(c);
    }

    /**
     * A line for the console: control characters (ESC and terminal sequences among them), bidirectional
     * overrides and whatever else could rewrite what a reader sees become \\uXXXX; line feeds stay.
     */
    public static String console(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                b.append(c).append(s.charAt(++i));
            } else if (c == '\n' || c == '\t' || (carried(c) && !(c >= 0x7F && c < 0xA0) && !bidi(c))) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04X", (int) c));
            }
        }
        return b.toString();
    }

    /** The bidirectional formatting characters that can make text read other than it is. */
    private static boolean bidi(char c) {
        return c == '\u061C' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }

    /** A value for a Java properties file (Allure's environment): one line whatever it holds. */
    public static String property(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append(' ');
                default -> b.append(c < 0x20 || c == 0x7F || !carried(c) ? String.format("\\u%04X", (int) c) : String.valueOf(c));
            }
        }
        return b.toString();
    }
}
