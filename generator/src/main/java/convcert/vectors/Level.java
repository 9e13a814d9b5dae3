package convcert.vectors;

import convcert.common.UsageException;
import convcert.spec.Labels;
import java.util.Locale;

/** How dense a generated set is: the columns of coverage.csv. */
public enum Level {
    QUICK, CI, FULL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** quick, ci or full; anything else is a usage error. */
    public static Level parse(String label) {
        Level level = Labels.find(values(), Level::label, label);
        if (level == null) {
            throw new UsageException("unknown level '" + label + "'; levels: quick ci full");
        }
        return level;
    }
}
