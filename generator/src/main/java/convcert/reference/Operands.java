package convcert.reference;

import convcert.spec.ScaleLane;

/**
 * How a case packs a value and its lane (stochastic rounding's random bits, a scale, or a scale field
 * with random bits above it) into one operand: the value in the source's low valueBits, the lane's
 * laneBits just above. Without a lane an operand is the value.
 *
 * @param valueBits  the source format's width
 * @param laneBits   the lane's width, 0 without one
 * @param scale      a scaled conversion's scale lane, else null
 * @param randomBits stochastic rounding's random bits per value, else 0
 */
public record Operands(int valueBits, int laneBits, ScaleLane scale, int randomBits) {

    /** The operand of a value and its lane's value. */
    public long operand(long value, long lane) {
        long values = valueBits >= 64 ? -1L : (1L << valueBits) - 1;
        return value & values | (laneBits == 0 ? 0 : (lane & ((1L << laneBits) - 1)) << valueBits);
    }

    /** The bits an operand may have: the source's, and the lane's above them. */
    public long mask() {
        int bits = valueBits + laneBits;
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** The lane's value in an operand (0 without a lane). */
    public long lane(long operand) {
        return laneBits == 0 ? 0 : operand >>> valueBits & ((1L << laneBits) - 1);
    }

    /** The power of two an operand's scale multiplies its value by (0 without a scale). */
    public int scaleExponent(long operand) {
        return scale == null ? 0 : scale.exponent(lane(operand));
    }

    /** The random bits of an operand (0 outside stochastic rounding): the lane above a scale field. */
    public long random(long operand) {
        return randomBits == 0 ? 0 : scale == null ? lane(operand) : lane(operand) >>> scale.bits();
    }

    /** The operand with these random bits, above its scale field where it has one. */
    public long withRandom(long operand, long random) {
        int at = valueBits + (scale == null ? 0 : scale.bits());
        return operand & ((1L << at) - 1) | (random & ((1L << randomBits) - 1)) << at;
    }

    /** The scale field of an operand: the lane's low bits (0 without a scale). */
    public long scaleCode(long operand) {
        return scale == null ? 0 : lane(operand) & ((1L << scale.bits()) - 1);
    }

    /** The operand with its scale field cleared: the value and any random bits, as if scaled by 2^0. */
    public long withoutScale(long operand) {
        return scale == null ? operand : operand & ~(((1L << scale.bits()) - 1) << valueBits);
    }
}
