package convcert.spec;

/**
 * One row of tapered.csv: the binades a prefix ('dot') code covers.
 * Normal rows cover exponents E with minAbsExponent <= |E| <= maxAbsExponent, both signs; the
 * exponent field stores the sign of E, then |E| without its leading 1. The denormal row covers the
 * negative exponents -maxAbsExponent..-minAbsExponent with no mantissa; its field holds
 * E + maxAbsExponent + 1 (0 encodes zero).
 *
 * @param hybrid "nearest-away" or "compare": what CAST_HYBRID does for inputs in these binades
 */
public record TaperedRow(String format, String prefix, boolean denormal, int exponentBits, int mantissaBits,
                         int minAbsExponent, int maxAbsExponent, String hybrid, Location location) {

    public boolean covers(int exponent) {
        int abs = Math.abs(exponent);
        if (abs < minAbsExponent || abs > maxAbsExponent) {
            return false;
        }
        return !denormal || exponent < 0;
    }
}
