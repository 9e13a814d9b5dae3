package convcert.spec;

import java.util.Set;

/**
 * One row of conversions.csv: a (source, destination) pair the API offers.
 *
 * @param nanResult integer destinations: what a NaN input gives where this pair differs from the
 *                  destination's from_nan (the optional nan_result column); null otherwise
 * @param randomBits stochastic rounding (rs): how many random bits each value takes, added below its
 *                   kept bits (the optional random_bits column); 0 where the pair has no rs
 * @param stochasticForms the forms rs offers where they are fewer than the pair's (the optional
 *                   rs_forms column: PTX cvt.rs to FP8 has only .satfinite); empty: the pair's
 * @param scale      scaled conversions: the scale each value takes (the optional scale column); null
 *                   where the pair takes none
 * @param identity   a floating format to itself is the identity (the optional same_type column:
 *                   OpenCL's convert_float(float)), not a rounding to an integral value (CUDA's rintf)
 */
public record Conversion(Format from, Format to, Set<Rounding> modes, Set<Form> forms, String group,
                         Rounding implicitRounding, String api, String source, Location location, Long nanResult,
                         int randomBits, Set<Form> stochasticForms, ScaleLane scale, boolean identity) {

    public Conversion(Format from, Format to, Set<Rounding> modes, Set<Form> forms, String group,
                      Rounding implicitRounding, String api, String source, Location location) {
        this(from, to, modes, forms, group, implicitRounding, api, source, location, null, 0, Set.of(), null, false);
    }

    /** The forms a mode offers: the pair's, or under rs its rs_forms where given. */
    public Set<Form> forms(Rounding mode) {
        return mode.stochastic() && !stochasticForms.isEmpty() ? stochasticForms : forms;
    }

    /**
     * The lane beside each value under a mode: rs's random bits, the scale column, both (the scale field
     * low, the random bits above it), or null. A value and its lane are one operand, the lane above the
     * value's bits.
     */
    public Lane lane(Rounding mode) {
        boolean random = mode.stochastic() && randomBits > 0;
        return random && scale != null ? Lane.SCALE_RANDOM : random ? Lane.RANDOM : scale != null ? Lane.SCALE : null;
    }

    /** The bits of the lane of a mode (0 without one). */
    public int laneBits(Rounding mode) {
        return (mode.stochastic() ? randomBits : 0) + (scale != null ? scale.bits() : 0);
    }

    /** The bits a NaN input gives an integer destination. */
    public long integerNan() {
        return nanResult != null ? nanResult : to.fromNan();
    }

    public String pairName() {
        return from.name() + "->" + to.name();
    }

    /** A format to itself (half->half, int32->int32): an integral rounding or the identity. */
    public boolean sameType() {
        return from.equals(to);
    }

    /** Rounding to an integral value in the same format (CUDA's float->float), unless same_type says identity. */
    public boolean integral() {
        return sameType() && !identity;
    }
}
