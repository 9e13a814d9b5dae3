package convcert.suite.model;

import convcert.opencl.MemoryVector;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import java.math.BigDecimal;

/**
 * What kind of difference a mismatch is, judged from the values the two bit patterns stand for (not
 * from the distance between the patterns): the chart in the HTML report counts these. The last four
 * are the OpenCL memory cases' kinds. Reports spell a kind by its label (toString).
 */
public enum MismatchKind {
    NAN_SIGN("NaN encoding: sign"),
    NAN_QUIET("NaN encoding: quiet bit"),
    NAN_PAYLOAD("NaN encoding: payload"),
    NAN_VERSUS_NUMBER("NaN vs number"),
    NAN_TO_INTEGER("NaN to integer"),
    SIGNED_ZERO("sign of zero"),
    SIGN("sign"),
    OVERFLOW("overflow / saturation"),
    WRAP_VERSUS_SATURATE("wrap vs saturate"),
    FLUSHED("subnormal vs zero (flush)"),
    ONE_STEP("one step (rounding)"),
    FEW_STEPS("2-16 steps"),
    OUT_OF_FORMAT("bits beyond the format's width"),
    OTHER("other"),
    WRONG_BYTES("wrong bytes"),
    ACCEPTED_MISALIGNED("accepted a misaligned vector"),
    ACCEPTED_SIZE_MISMATCH("accepted a size-mismatch vector"),
    UNANSWERED("no result (the adapter left it unwritten)");

    private final String label;

    MismatchKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** The kind a report names by this label, or null for a label convcert does not write. */
    public static MismatchKind fromLabel(String label) {
        for (MismatchKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }

    /** A memory vector the reference refuses (misaligned, sizes that differ) that the adapter ran. */
    public static MismatchKind accepted(MemoryVector.Outcome refused) {
        return switch (refused) {
            case MISALIGNED -> ACCEPTED_MISALIGNED;
            case SIZE_MISMATCH -> ACCEPTED_SIZE_MISMATCH;
            default -> throw new IllegalArgumentException("not a refused outcome a device runs: " + refused);
        };
    }

    /**
     * integral: the conversion rounds to integral values (same-type rounding), so one rounding step is
     * one unit rather than one ulp of the destination.
     */
    public static MismatchKind classify(FormatCodec source, long input, FormatCodec destination, long expected, long actual,
                                 boolean integral) {
        if ((actual & ~destination.format().mask()) != 0) {
            return OUT_OF_FORMAT;
        }
        if (destination.isInteger() && !source.isInteger() && source.decode(input).kind() == Decoded.Kind.NAN) {
            return NAN_TO_INTEGER;
        }
        Decoded e = destination.decode(expected);
        Decoded a = destination.decode(actual);
        boolean eNan = e.kind() == Decoded.Kind.NAN;
        boolean aNan = a.kind() == Decoded.Kind.NAN;
        if (eNan && aNan) {
            return nanDifference(destination, expected, actual);
        }
        if ((eNan || aNan) && !source.isInteger() && source.decode(input).kind() == Decoded.Kind.NAN) {
            return NAN_VERSUS_NUMBER; // a NaN input given a number (or a number for a NaN): how NaN is handled
        }
        if (eNan || aNan) { // a finite input: a NaN where the other saturated or overflowed (fp8 e4m3fn has no infinity)
            Decoded number = eNan ? a : e;
            long bits = eNan ? actual : expected;
            return number.kind() == Decoded.Kind.INFINITE || (!destination.isInteger()
                    && bits == destination.largestFinite(number.negative())) ? OVERFLOW : NAN_VERSUS_NUMBER;
        }
        if (e.kind() == Decoded.Kind.ZERO && a.kind() == Decoded.Kind.ZERO) {
            return SIGNED_ZERO;
        }
        if (destination.isInteger()) {
            boolean bound = expected == destination.integerMax() || expected == destination.integerMin()
                    || actual == destination.integerMax() || actual == destination.integerMin();
            BigDecimal steps = value(e).subtract(value(a)).abs();
            if (steps.compareTo(BigDecimal.ONE) == 0) {
                return ONE_STEP;
            }
            return bound ? WRAP_VERSUS_SATURATE : steps.compareTo(BigDecimal.valueOf(16)) <= 0 ? FEW_STEPS : OTHER;
        }
        if (e.kind() == Decoded.Kind.INFINITE || a.kind() == Decoded.Kind.INFINITE
                || expected == destination.largestFinite(e.negative()) || actual == destination.largestFinite(a.negative())) {
            return OVERFLOW;
        }
        if (e.negative() != a.negative() && value(e).abs().compareTo(value(a).abs()) == 0) {
            return SIGN;
        }
        if ((e.kind() == Decoded.Kind.ZERO && subnormal(destination, a)) || (a.kind() == Decoded.Kind.ZERO
                && subnormal(destination, e))) {
            return FLUSHED;
        }
        // Steps on the destination's grid at the expected value (or one unit, rounding to integral values).
        Decoded at = e.kind() == Decoded.Kind.FINITE ? e : a;
        BigDecimal step = Values.exact(false, 1, at.exponent());
        if (integral && step.compareTo(BigDecimal.ONE) < 0) {
            step = BigDecimal.ONE;
        }
        BigDecimal steps = value(e).subtract(value(a)).abs().divide(step);
        if (steps.compareTo(BigDecimal.ONE) == 0) {
            return ONE_STEP;
        }
        return steps.compareTo(BigDecimal.valueOf(16)) <= 0 ? FEW_STEPS : OTHER;
    }

    private static MismatchKind nanDifference(FormatCodec destination, long expected, long actual) {
        if (((expected ^ actual) & destination.signBit()) != 0) {
            return NAN_SIGN;
        }
        var f = destination.format();
        if (f.hasNan() && f.mantissaBits() > 0) {
            long quiet = 1L << (f.mantissaBits() - 1);
            if (((expected ^ actual) & quiet) != 0) {
                return NAN_QUIET;
            }
        }
        return NAN_PAYLOAD;
    }

    private static boolean subnormal(FormatCodec codec, Decoded d) {
        return d.kind() == Decoded.Kind.FINITE && d.binade() < codec.minExponent();
    }

    private static BigDecimal value(Decoded d) {
        return d.kind() == Decoded.Kind.FINITE ? Values.exact(d.negative(), d.significand(), d.exponent()) : BigDecimal.ZERO;
    }
}
