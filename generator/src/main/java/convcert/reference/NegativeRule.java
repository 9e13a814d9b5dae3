package convcert.reference;

import convcert.spec.Layout;

/**
 * What a negative value does in a floating destination without a sign, by the decision its layout has:
 * p3109-unsigned-negative (P3109's unsigned formats), fnu-negative (ieee-fnu: UE5M3) or unsigned-negative
 * (the exponent layout: E8M0). Chosen once per converter, not per value.
 */
enum NegativeRule {
    /** Rounded as a signed value; a nonzero result lies below the range (P3109's Saturate table). */
    BELOW_RANGE("rounded as a signed value"),
    /** The format's zero. */
    ZERO("0"),
    /** The format's NaN. */
    NAN("NaN"),
    /** The magnitude is converted. */
    ABSOLUTE("the magnitude is converted");

    private final String effect;

    NegativeRule(String effect) {
        this.effect = effect;
    }

    /** The rule of dst, or null where dst has a sign (or is an integer: integer rounding clamps). */
    static NegativeRule of(FormatCodec dst, Semantics semantics) {
        if (dst.isInteger() || dst.format().isSigned()) {
            return null;
        }
        // The three decisions' options are named as these constants are.
        return valueOf(semantics.get(decision(dst.layout())).name());
    }

    static Semantics.Switch<?> decision(Layout layout) {
        return switch (layout) {
            case P3109_UNSIGNED -> Semantics.P3109_UNSIGNED_NEGATIVE;
            case IEEE_FNU -> Semantics.FNU_NEGATIVE;
            default -> Semantics.UNSIGNED_NEGATIVE;
        };
    }

    /** The trace's note: "ue5m3 has no sign: 0 (decision fnu-negative=zero)". */
    String note(FormatCodec dst, Semantics semantics) {
        Semantics.Switch<?> decision = decision(dst.layout());
        return dst.format().name() + " has no sign: " + effect + " (decision " + decision.id() + "="
                + Semantics.optionName(semantics.get(decision)) + ")";
    }
}
