package convcert.suite.runner;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;

/** What kind of difference a mismatch is: the chart in the HTML report counts these. */
public enum MismatchKind {
    NAN_ENCODING("NaN encoding"),
    NAN_VERSUS_NUMBER("NaN vs number"),
    SIGNED_ZERO("sign of zero"),
    INFINITY_VERSUS_FINITE("overflow / saturation"),
    ONE_STEP("one step (rounding)"),
    OUT_OF_FORMAT("bits beyond the format's width"),
    OTHER("other");

    private final String label;

    MismatchKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    static MismatchKind classify(FormatCodec destination, long expected, long actual) {
        if ((actual & ~destination.format().mask()) != 0) {
            return OUT_OF_FORMAT;
        }
        Decoded e = destination.decode(expected);
        Decoded a = destination.decode(actual);
        boolean eNan = e.kind() == Decoded.Kind.NAN;
        boolean aNan = a.kind() == Decoded.Kind.NAN;
        if (eNan && aNan) {
            return NAN_ENCODING;
        }
        if (eNan || aNan) {
            return NAN_VERSUS_NUMBER;
        }
        if (e.kind() == Decoded.Kind.ZERO && a.kind() == Decoded.Kind.ZERO) {
            return SIGNED_ZERO;
        }
        if ((e.kind() == Decoded.Kind.INFINITE) != (a.kind() == Decoded.Kind.INFINITE)
                || expected == destination.largestFinite(e.negative()) || actual == destination.largestFinite(a.negative())) {
            if (!destination.isInteger()) {
                return INFINITY_VERSUS_FINITE;
            }
        }
        long distance = destination.isInteger() ? Math.abs(expected - actual)
                : e.negative() == a.negative() ? Math.abs((expected & ~destination.signBit()) - (actual & ~destination.signBit()))
                : Long.MAX_VALUE;
        return distance == 1 ? ONE_STEP : OTHER;
    }
}
