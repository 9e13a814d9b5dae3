package convcert.reference;

/** A finite value to an integer destination: rounded by the case's mode, then in range, wrapped or saturated. */
final class IntegerRounding {

    private final FormatCodec dst;
    private final int roundingTable;
    private final boolean wrapping;

    IntegerRounding(FormatCodec dst, int roundingTable, boolean wrapping) {
        this.dst = dst;
        this.roundingTable = roundingTable;
        this.wrapping = wrapping;
    }

    long toInteger(boolean negative, long significand, int exponent, Trace t) {
        long magnitude;
        if (exponent >= 0) {
            if (64 - Long.numberOfLeadingZeros(significand) + exponent > 64) {
                // |x| >= 2^64: out of every range; the low 64 bits of the integer are its shifted significand.
                return outOfRange(negative, exponent >= 64 ? 0 : significand << exponent, t);
            }
            magnitude = significand << exponent;
        } else {
            int shift = -exponent;
            long kept = Rounder.kept(significand, shift);
            int guard = Rounder.guard(significand, shift);
            if (t != null) {
                t.rounding(0, kept, guard);
            }
            magnitude = (roundingTable >>> Rounder.index(negative, kept, guard) & 1) != 0 ? kept + 1 : kept;
        }
        boolean inRange = dst.format().isSigned()
                ? Long.compareUnsigned(magnitude, negative ? dst.signBit() : dst.integerMax()) <= 0
                : !negative ? Long.compareUnsigned(magnitude, dst.integerMax()) <= 0 : magnitude == 0;
        return inRange ? (negative ? -magnitude : magnitude) & dst.mask() : outOfRange(negative, magnitude, t);
    }

    /** An integer result outside the destination: keep the low bits (wrap) or saturate. */
    private long outOfRange(boolean negative, long lowBits, Trace t) {
        if (wrapping) {
            if (t != null) t.note("out of range: keeps the low " + dst.format().width() + " bits (wrap)");
            return (negative ? -lowBits : lowBits) & dst.mask();
        }
        if (t != null) t.note("out of range: saturates to the " + (negative ? "smallest" : "largest") + " value");
        return negative ? dst.integerMin() : dst.integerMax();
    }
}
