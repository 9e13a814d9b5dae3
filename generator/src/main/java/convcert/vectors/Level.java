package convcert.vectors;

/** How dense a generated set is: the columns of coverage.csv. */
public enum Level {
    QUICK, CI, FULL;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
