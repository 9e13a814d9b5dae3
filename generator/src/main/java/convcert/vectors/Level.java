package convcert.vectors;

/** How dense a generated set is: the columns of coverage.csv. */
public enum Level {
    QUICK, CI, FULL;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** quick, ci or full; anything else is a usage error. */
    public static Level parse(String label) {
        Level level = convcert.spec.Labels.find(values(), Level::label, label);
        if (level == null) {
            throw new convcert.reference.UsageException("unknown level '" + label + "'; levels: quick ci full");
        }
        return level;
    }
}
