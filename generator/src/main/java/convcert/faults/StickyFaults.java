package convcert.faults;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.spec.Layout;

/**
 * A sticky bit built from the wrong bits, beside faults.csv's fixed widths (drop-low-bits=K): here the sticky
 * bit is never formed, so every discarded bit below the guard bit is lost and a value just above a tie rounds
 * as the tie does. Where the guard bit sits depends on the result's binade, so the input is cut there.
 */
final class StickyFaults {

    private StickyFaults() {
    }

    /** The conversion of the input with every bit below the destination's guard bit cleared; null where none is dropped. */
    static Faulty belowGuard(Converter right) {
        FormatCodec src = right.source();
        FormatCodec dst = right.destination();
        boolean binary = src.layout() == Layout.IEEE || src.layout() == Layout.IEEE_FN || src.layout() == Layout.INT
                || src.layout() == Layout.UINT;
        if (dst.isInteger() || !binary || dst.layout() == Layout.EXPONENT) {
            return null;
        }
        return Faulty.before(right, x -> {
            Decoded d = src.decode(x);
            if (d.kind() != Decoded.Kind.FINITE) {
                return x;
            }
            // bits of the significand under the guard bit (above the top binade, where the value overflows, its quantum)
            int below = dst.quantum(Math.min(d.binade(), dst.maxExponent())) - 1 - d.exponent();
            if (below <= 0) {
                return x;
            }
            long lane = x & ~src.mask(); // random bits or a scale above the value stay
            if (below >= 64 - Long.numberOfLeadingZeros(d.significand())) { // the whole value lies under the guard bit
                return lane | (src.isInteger() || !d.negative() ? 0 : src.signBit());
            }
            if (!src.isInteger()) { // the significand's low bits are the fraction field's
                return x & ~((1L << below) - 1);
            }
            long cut = d.significand() & ~((1L << below) - 1);
            return lane | (d.negative() ? -cut : cut) & src.mask();
        });
    }
}
