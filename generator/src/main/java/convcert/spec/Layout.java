package convcert.spec;

/** How a format's bits are laid out: the column 'layout' of formats.csv. */
public enum Layout {
    /** IEEE 754 interchange layout: the all-ones exponent holds infinity and the NaNs. */
    IEEE("ieee"),
    /** Finite-only IEEE-like layout (OCP E4M3): only the all-ones exponent with the all-ones mantissa is NaN. */
    IEEE_FN("ieee-fn"),
    /**
     * Unsigned finite-only IEEE-like layout (NVIDIA UE5M3): exponent and mantissa fields over the whole
     * width, subnormals, one zero (0), no infinity, the one NaN all ones.
     */
    IEEE_FNU("ieee-fnu"),
    /**
     * An unsigned power of two (OCP MX E8M0 scale): the whole width is a biased exponent, all ones is
     * NaN; no sign, no zero, no subnormals, no mantissa.
     */
    EXPONENT("exponent"),
    /**
     * IEEE P3109 signed binary{K}p{P}: sign, exponent and trailing significand fields, subnormals, one
     * zero and one NaN, the code of -0 (2^(K-1)); the extended domain's infinities are all ones below the
     * sign (+inf) and all ones (-inf). The finite domain has none: every other code is a number.
     */
    P3109_SIGNED("p3109-signed"),
    /**
     * IEEE P3109 unsigned binary{K}p{P}: no sign, exponent and trailing significand fields over all K
     * bits, subnormals, one zero (0), the NaN all ones; the extended domain's +inf the code below it.
     */
    P3109_UNSIGNED("p3109-unsigned"),
    /** Prefix-coded tapered precision (HiFloat8): per-exponent rows in tapered.csv. */
    TAPERED("tapered"),
    /**
     * Two's complement fixed point: the integer times 2^-mantissa_bits (OCP MX INT8 elements: 6 fraction
     * bits); no zero sign, no infinity, no NaN.
     */
    FIXED("fixed"),
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

    /** Whether the layout is one of IEEE P3109's (signed or unsigned). */
    public boolean p3109() {
        return this == P3109_SIGNED || this == P3109_UNSIGNED;
    }

    /** Whether a sign bit sits above the fields (floating layouts; integers are two's complement or not). */
    public boolean hasSignBit() {
        return this != EXPONENT && this != UINT && this != P3109_UNSIGNED && this != IEEE_FNU;
    }

    public static Layout parse(String name) {
        return Labels.find(values(), Layout::tableName, name);
    }
}
