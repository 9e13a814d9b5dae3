package convcert.spec;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The rounding modes the reference implements, by API suffix. rounding.csv maps the document's
 * CAST_* names onto these; a suffix there that is not listed here is a table error.
 */
public enum Rounding {
    RN, RD, RU, RNA, RZ, RO, RH;

    public String suffix() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Rounding parse(String suffix) {
        for (Rounding mode : values()) {
            if (mode.suffix().equals(suffix)) {
                return mode;
            }
        }
        return null;
    }

    public static String known() {
        return Arrays.stream(values()).map(Rounding::suffix).collect(Collectors.joining(" "));
    }
}
