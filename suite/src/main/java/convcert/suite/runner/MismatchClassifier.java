package convcert.suite.runner;

import static convcert.suite.model.MismatchKind.*;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.suite.model.MismatchKind;
import java.math.BigDecimal;

/**
 * Names what kind of difference a mismatch is (MismatchKind), judged from the values the two bit patterns
 * stand for and the input; the runners call it for every mismatch they count.
 */
final class MismatchClassifier {

    private MismatchClassifier() {
    }

    /**
     * The kind of a mismatching value conversion, from what the input was and what the two results stand
     * for. Distances count codes in the destination's value order (FormatCodec.rank), so a result one code
     * below a power of two is one step; integral: the conversion rounds to integral values (same-type
     * rounding), where one step is one unit. An input beyond the destination's range (past the midpoint
     * to the next binade) that meets infinity or the largest finite value is an overflow; one within it
     * is rounding, even at the top of the range.
     */
    static MismatchKind classify(FormatCodec source, long input, FormatCodec destination, long expected, long actual,
                                        boolean integral) {
        if ((actual & ~destination.format().mask()) != 0) {
            return actual == UNWRITTEN ? UNANSWERED : OUT_OF_FORMAT;
        }
        Decoded in = source.decode(input);
        if (in.kind() == Decoded.Kind.NAN) {
            return nanInput(destination, expected, actual);
        }
        return judged(destination, expected, actual, in, integral);
    }

    /**
     * The kind of a mismatching output whose input is not one value (an element or scale of a block):
     * from the two results alone, infinity and the largest finite value read as overflow.
     */
    static MismatchKind classify(FormatCodec destination, long expected, long actual) {
        if ((actual & ~destination.format().mask()) != 0) {
            return OUT_OF_FORMAT;
        }
        return judged(destination, expected, actual, null, false);
    }

    /** Both classifications from the results on: in is the input, or null where there is no one input. */
    private static MismatchKind judged(FormatCodec destination, long expected, long actual, Decoded in, boolean integral) {
        MismatchKind special = special(destination, expected, actual);
        if (special != null) {
            return special;
        }
        Decoded e = destination.decode(expected);
        Decoded a = destination.decode(actual);
        if (destination.isInteger()) {
            return integer(destination, e, a, expected, actual);
        }
        if (limit(destination, e, a, expected, actual) && (in == null || beyondRange(destination, in))) {
            return OVERFLOW;
        }
        MismatchKind value = byValue(destination, e, a);
        if (value != null) {
            return value;
        }
        if (integral) {
            Decoded at = e.kind() == Decoded.Kind.FINITE ? e : a;
            BigDecimal step = Values.exact(false, 1, at.exponent()).max(BigDecimal.ONE);
            return steps(value(e).subtract(value(a)).abs().divide(step));
        }
        return steps(BigDecimal.valueOf(Math.abs(destination.rank(expected) - destination.rank(actual))));
    }

    /** A NaN input: how NaN was handled, whatever the results are. */
    private static MismatchKind nanInput(FormatCodec destination, long expected, long actual) {
        if (destination.isInteger()) {
            return NAN_TO_INTEGER;
        }
        Decoded e = destination.decode(expected);
        Decoded a = destination.decode(actual);
        boolean eNan = e.kind() == Decoded.Kind.NAN;
        boolean aNan = a.kind() == Decoded.Kind.NAN;
        if (e.kind() == Decoded.Kind.ZERO && a.kind() == Decoded.Kind.ZERO) {
            return SIGNED_ZERO; // a NaN given zero (a format without NaN), with the other sign
        }
        return eNan && aNan ? nanDifference(destination, expected, actual) : eNan || aNan ? NAN_VERSUS_NUMBER
                : NAN_WITHOUT_NAN;
    }

    /** NaN results of a number, and zeros of two signs; null for two numbers. */
    private static MismatchKind special(FormatCodec destination, long expected, long actual) {
        Decoded e = destination.decode(expected);
        Decoded a = destination.decode(actual);
        boolean eNan = e.kind() == Decoded.Kind.NAN;
        boolean aNan = a.kind() == Decoded.Kind.NAN;
        if (eNan && aNan) {
            return nanDifference(destination, expected, actual);
        }
        if (eNan || aNan) { // a NaN where the other saturated or overflowed (fp8 e4m3fn has no infinity)
            Decoded number = eNan ? a : e;
            long bits = eNan ? actual : expected;
            return number.kind() == Decoded.Kind.INFINITE || (!destination.isInteger()
                    && bits == destination.largestFinite(number.negative())) ? OVERFLOW : NAN_VERSUS_NUMBER;
        }
        return e.kind() == Decoded.Kind.ZERO && a.kind() == Decoded.Kind.ZERO ? SIGNED_ZERO : null;
    }

    private static MismatchKind integer(FormatCodec destination, Decoded e, Decoded a, long expected, long actual) {
        boolean bound = expected == destination.integerMax() || expected == destination.integerMin()
                || actual == destination.integerMax() || actual == destination.integerMin();
        BigDecimal steps = value(e).subtract(value(a)).abs();
        if (steps.compareTo(BigDecimal.ONE) == 0) {
            return ONE_STEP;
        }
        return bound ? WRAP_VERSUS_SATURATE : steps(steps);
    }

    /** Whether either result is an infinity or the largest finite value. */
    private static boolean limit(FormatCodec destination, Decoded e, Decoded a, long expected, long actual) {
        return e.kind() == Decoded.Kind.INFINITE || a.kind() == Decoded.Kind.INFINITE
                || expected == destination.largestFinite(e.negative()) || actual == destination.largestFinite(a.negative());
    }

    /** Whether the input lies beyond the largest finite value plus half its quantum: past rounding, into overflow. */
    private static boolean beyondRange(FormatCodec destination, Decoded in) {
        if (in.kind() == Decoded.Kind.INFINITE) {
            return true;
        }
        if (in.kind() != Decoded.Kind.FINITE) {
            return false;
        }
        int q = destination.quantum(destination.maxExponent());
        BigDecimal limit = Values.exact(false, 2 * destination.maxKept() + 1, q - 1);
        return value(in).abs().compareTo(limit) > 0;
    }

    /** Sign, and a subnormal result flushed to zero, from the values; null when it is a matter of distance. */
    private static MismatchKind byValue(FormatCodec destination, Decoded e, Decoded a) {
        if (e.negative() != a.negative() && value(e).abs().compareTo(value(a).abs()) == 0) {
            return SIGN;
        }
        if (a.kind() == Decoded.Kind.ZERO && subnormal(destination, e)) { // a subnormal made zero; zero made a subnormal is rounding
            return FLUSHED;
        }
        return null;
    }

    private static MismatchKind steps(BigDecimal steps) {
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
