package convcert.reference;

/**
 * A bit pattern's value: (-1)^negative * significand * 2^exponent for finite values, the
 * significand read as unsigned. A NaN's payload is its fraction left-aligned in 64 bits, quiet bit
 * first, so that it narrows or widens by a shift.
 */
public record Decoded(Kind kind, boolean negative, long significand, int exponent, long payload) {

    public enum Kind { ZERO, FINITE, INFINITE, NAN }

    static Decoded zero(boolean negative) {
        return new Decoded(Kind.ZERO, negative, 0, 0, 0);
    }

    static Decoded finite(boolean negative, long significand, int exponent) {
        return new Decoded(Kind.FINITE, negative, significand, exponent, 0);
    }

    /** The binade exponent E: 2^E <= |value| < 2^(E+1). Finite values only. */
    public int binade() {
        return exponent + 63 - Long.numberOfLeadingZeros(significand);
    }
}
