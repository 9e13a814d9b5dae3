package convcert.spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * families.csv: format families generated from parameters, one row per family (IEEE P3109's
 * binary{K}p{P}{s}{e|f}): each row expands to one format per width K, precision P, signedness and
 * domain it names, with the draft's encodings (FormatTable checks P3109 rows the same way). A
 * conversions.csv row naming a family stands for one pair per format of it.
 */
final class FamilyTable {

    static final List<String> COLUMNS = List.of("family", "name", "aliases", "k", "p", "signedness", "domain",
            "description", "source");

    private FamilyTable() {
    }

    /** Each family's formats, in expansion order (K, signedness, domain, then P), added to formats as it goes. */
    static Map<String, List<Format>> load(CsvTable table, FormatTable formats) {
        Map<String, List<Format>> families = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String family = row.identifier("family", row.required("family"));
            if (formats.byAnyName.containsKey(family) || families.containsKey(family)) {
                throw row.error("family", "'" + family + "' already names a format or a family");
            }
            String pattern = row.required("name");
            if (!pattern.contains("{k}") || !pattern.contains("{p}") || !pattern.contains("{s}") || !pattern.contains("{d}")) {
                throw row.error("name", "a family's name pattern needs {k}, {p}, {s} and {d}, got '" + pattern + "'");
            }
            List<Format> members = new ArrayList<>();
            for (String kText : row.words("k")) {
                int k = number(row, "k", kText);
                if (k < 4 || k > 8 && k != 16) {
                    throw row.error("k", "K must be 4 to 8 or 16 (elements of up to 8 bits take a byte), got " + k);
                }
                for (String signedness : words(row, "signedness", "signed", "unsigned")) {
                    boolean signed = signedness.equals("signed");
                    for (String domain : words(row, "domain", "extended", "finite")) {
                        for (int p : precisions(row, k, signed)) {
                            members.add(formats.add(row, member(row, pattern, k, p, signed, domain.equals("extended"))));
                        }
                    }
                }
            }
            if (members.isEmpty()) {
                throw row.error("k", "the family has no formats");
            }
            families.put(family, List.copyOf(members));
        }
        return families;
    }

    /** binary{K}p{P}: signed K-P exponent bits with bias 2^(K-P-1); unsigned K-P+1 with bias 2^(K-P) (draft 3.2). */
    private static Format member(CsvTable.Row row, String pattern, int k, int p, boolean signed, boolean extended) {
        int exponentBits = signed ? k - p : k - p + 1;
        long nan = signed ? 1L << (k - 1) : (1L << k) - 1;
        long top = nan - 1; // signed: all ones below the sign; unsigned: the code below the NaN
        Long inf = extended ? top : null;
        long max = extended ? top - 1 : top;
        String name = expand(pattern, k, p, signed, extended);
        List<String> aliases = row.words("aliases").stream().map(a -> expand(a, k, p, signed, extended)).toList();
        String description = "IEEE P3109 " + name + ": K=" + k + ", P=" + p + ", " + (signed ? "signed" : "unsigned")
                + ", " + (extended ? "extended" : "finite") + " (" + row.text("description") + ")";
        return new Format(name, aliases, k, signed ? Layout.P3109_SIGNED : Layout.P3109_UNSIGNED, exponentBits, p - 1,
                1 << (exponentBits - 1), inf, nan, max, false, "nan", null, description, row.location("name"));
    }

    private static String expand(String pattern, int k, int p, boolean signed, boolean extended) {
        return pattern.replace("{k}", Integer.toString(k)).replace("{p}", Integer.toString(p))
                .replace("{s}", signed ? "s" : "u").replace("{d}", extended ? "e" : "f");
    }

    /** "*" for every precision the draft allows (1 to K-1 signed, 1 to K unsigned), or a list of them. */
    private static List<Integer> precisions(CsvTable.Row row, int k, boolean signed) {
        int most = signed ? k - 1 : k;
        List<Integer> ps = new ArrayList<>();
        if (row.required("p").equals("*")) {
            for (int p = 1; p <= most; p++) {
                ps.add(p);
            }
            return ps;
        }
        for (String word : row.words("p")) {
            int p = number(row, "p", word);
            if (p < 1 || p > k) {
                throw row.error("p", "P must be 1 to K (" + k + "), got " + p);
            }
            if (p <= most) { // P = K is unsigned only
                ps.add(p);
            }
        }
        return ps;
    }

    private static List<String> words(CsvTable.Row row, String column, String... allowed) {
        List<String> words = row.words(column);
        if (words.isEmpty()) {
            throw row.error(column, "expected some of " + String.join(" ", allowed));
        }
        for (String word : words) {
            if (!List.of(allowed).contains(word)) {
                throw row.error(column, "expected some of " + String.join(" ", allowed) + ", got '" + word + "'");
            }
        }
        return words;
    }

    private static int number(CsvTable.Row row, String column, String word) {
        try {
            return Integer.parseInt(word);
        } catch (NumberFormatException e) {
            throw row.error(column, "expected a number, got '" + word + "'");
        }
    }
}
