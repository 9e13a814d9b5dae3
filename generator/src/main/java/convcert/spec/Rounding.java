package convcert.spec;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rounding modes the reference implements, by API suffix. rounding.csv maps the document's
 * CAST_* names onto these; a suffix there that is not listed here is a table error. RS is stochastic
 * rounding with explicit random bits: an operand lane beside the value (conversions.csv random_bits).
 */
public enum Rounding {
    RN, RD, RU, RNA, RZ, RO, RH, RS;

    /** Whether a conversion in this mode takes random bits beside each value. */
    public boolean stochastic() {
        return this == RS;
    }

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
