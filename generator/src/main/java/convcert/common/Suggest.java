package convcert.common;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "did you mean fp8_e4m3fn?": the known names nearest a mistyped one, for a usage error's first words. */
public final class Suggest {

    private Suggest() {
    }

    /** "; did you mean A or B?" for the known names within a few edits of given (case ignored), or "". */
    public static String nearest(String given, Collection<String> known) {
        String g = given.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, g.length() / 3);
        List<String> near = known.stream().distinct().filter(k -> distance(g, k.toLowerCase(Locale.ROOT)) <= limit
                        || k.toLowerCase(Locale.ROOT).contains(g) && g.length() >= 3)
                .sorted(Comparator.comparingInt(k -> distance(g, k.toLowerCase(Locale.ROOT)))).limit(3).toList();
        return near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?";
    }

    /** Levenshtein's distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
