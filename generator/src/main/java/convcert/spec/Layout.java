package convcert.spec;

/** How a format's bits are laid out: the column 'layout' of formats.csv. */
public enum Layout {
    /** IEEE 754 interchange layout: the all-ones exponent holds infinity and the NaNs. */
    IEEE("ieee"),
    /** Finite-only IEEE-like layout (OCP E4M3): only the all-ones exponent with the all-ones mantissa is NaN. */
    IEEE_FN("ieee-fn"),
    /**
     * An unsigned power of two (OCP MX E8M0 scale): the whole width is a biased exponent, all ones is
     * NaN; no sign, no zero, no subnormals, no mantissa.
     */
    EXPONENT("exponent"),
    /** Prefix-coded tapered precision (HiFloat8): per-exponent rows in tapered.csv. */
    TAPERED("tapered"),
    /** Two's complement integer. */
    INT("int"),
    /** Unsigned integer. */
    UINT("uint");

    private final String tableName;

    Layout(String tableName) {
        this.tableName = tableName;
    }

    public String tableName() {
        return tableName;
    }

    public boolean isInteger() {
        return this == INT || this == UINT;
    }

    public static Layout parse(String name) {
        return Labels.find(values(), Layout::tableName, name);
    }
}
