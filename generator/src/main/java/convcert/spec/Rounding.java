package convcert.spec;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rounding modes the reference implements, by API suffix. rounding.csv maps the document's
 * CAST_* names onto these; a suffix there that is not listed here is a table error.
 */
public enum Rounding {
    RN, RD, RU, RNA, RZ, RO, RH;

    public String suffix() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Rounding parse(String suffix) {
        return Labels.find(values(), Rounding::suffix, suffix);
    }

    public static String known() {
        return Arrays.stream(values()).map(Rounding::suffix).collect(Collectors.joining(" "));
    }
}
