package convcert.oracle;

import java.math.BigDecimal;

/** A decoded value, written independently of the reference: kind, sign, exact magnitude. */
public record Value(Kind kind, boolean negative, BigDecimal magnitude) {

    public enum Kind { ZERO, FINITE, INFINITE, NAN }

    public static Value finite(boolean negative, BigDecimal magnitude) {
        return magnitude.signum() == 0 ? new Value(Kind.ZERO, negative, BigDecimal.ZERO)
                : new Value(Kind.FINITE, negative, magnitude);
    }

    public BigDecimal signed() {
        return negative ? magnitude.negate() : magnitude;
    }
}
