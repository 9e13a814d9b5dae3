package convcert.reference;

import convcert.spec.Rounding;

/**
 * The rounding decision shared by every conversion: given the kept magnitude (truncated), the first
 * discarded bit and whether any later discarded bit is set, does the magnitude go up by one unit?
 * CAST_HYBRID is decided by the converter, which holds the input bits it needs.
 */
final class Rounder {

    private Rounder() {
    }

    static boolean increments(Rounding mode, boolean negative, long kept, boolean half, boolean sticky) {
        return switch (mode) {
            case RN -> half && (sticky || (kept & 1) != 0);
            case RNA -> half;
            case RZ -> false;
            case RU -> !negative && (half || sticky);
            case RD -> negative && (half || sticky);
            // Round to odd: an inexact result gets its last bit set, i.e. an even one goes up by one.
            case RO -> (half || sticky) && (kept & 1) == 0;
            case RH -> throw new IllegalStateException("hybrid rounding is decided by the converter");
        };
    }
}
