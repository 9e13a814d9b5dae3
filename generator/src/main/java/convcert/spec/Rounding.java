package convcert.spec;

import convcert.common.Suggest;
import convcert.common.UsageException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rounding modes the reference implements, by API suffix. rounding.csv maps the document's
 * CAST_* names onto these; a suffix there that is not listed here is a table error. RS is stochastic
 * rounding with explicit random bits: an operand lane beside the value (conversions.csv random_bits),
 * read as decision stochastic-rounding says; RSA, RSB and RSC are IEEE P3109's StochasticA, B and C,
 * three modes of one profile, each with its own reading.
 */
public enum Rounding {
    RN, RD, RU, RNA, RZ, RO, RH, RS, RSA, RSB, RSC;

    /** Whether a conversion in this mode takes random bits beside each value. */
    public boolean stochastic() {
        return this == RS || this == RSA || this == RSB || this == RSC;
    }

    public String suffix() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Rounding parse(String suffix) {
        return Labels.find(values(), Rounding::suffix, suffix);
    }

    /** The mode a suffix names; an unknown one is a usage error naming the nearest and the known ones. */
    public static Rounding named(String suffix) {
        Rounding mode = parse(suffix);
        if (mode == null) {
            throw new UsageException("unknown rounding mode '" + suffix + "'" + Suggest.nearest(suffix, List.of(known()
                    .split("[ ,]+"))) + "; modes: " + known());
        }
        return mode;
    }

    public static String known() {
        return Arrays.stream(values()).map(Rounding::suffix).collect(Collectors.joining(" "));
    }
}
