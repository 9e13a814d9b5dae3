package convcert.reference;

import convcert.spec.Rounding;

/**
 * The rounding step shared by every conversion. A magnitude significand * 2^-shift is cut to its
 * integer part (kept) and two guard bits: HALF, the first discarded bit, and STICKY, whether any later
 * discarded bit is set. The mode then decides whether kept goes up by one unit. CAST_HYBRID is
 * decided by the converter, which holds the input bits it needs.
 */
final class Rounder {

    static final int HALF = 2;
    static final int STICKY = 1;

    private Rounder() {
    }

    /** The integer part of significand * 2^-shift, for shift >= 0. */
    static long kept(long significand, int shift) {
        return shift < 64 ? significand >>> shift : 0;
    }

    /** HALF | STICKY of the bits that significand * 2^-shift discards, for shift >= 0. */
    static int guard(long significand, int shift) {
        if (shift == 0) {
            return 0;
        }
        if (shift < 64) {
            long discarded = significand << (64 - shift);
            return (discarded < 0 ? HALF : 0) | (discarded << 1 != 0 ? STICKY : 0);
        }
        if (shift == 64) {
            return (significand < 0 ? HALF : 0) | ((significand & Long.MAX_VALUE) != 0 ? STICKY : 0);
        }
        return significand != 0 ? STICKY : 0;
    }

    /**
     * {@link #increments} of one mode as a 16-bit table, indexed by {@link #index}: the conversion loop
     * looks its decision up instead of branching on the mode.
     */
    static int table(Rounding mode) {
        int table = 0;
        for (int i = 0; i < 16; i++) {
            if (increments(mode, (i & 8) != 0, (i >> 2) & 1, i & 3)) {
                table |= 1 << i;
            }
        }
        return table;
    }

    static int index(boolean negative, long kept, int guard) {
        return (negative ? 8 : 0) | (int) (kept & 1) << 2 | guard;
    }

    static boolean increments(Rounding mode, boolean negative, long kept, int guard) {
        return switch (mode) {
            case RN -> (guard & HALF) != 0 && ((guard & STICKY) != 0 || (kept & 1) != 0);
            case RNA -> (guard & HALF) != 0;
            case RZ -> false;
            case RU -> !negative && guard != 0;
            case RD -> negative && guard != 0;
            // Round to odd: an inexact result gets its last bit set, i.e. an even one goes up by one.
            case RO -> guard != 0 && (kept & 1) == 0;
            case RH -> throw new IllegalStateException("hybrid rounding is decided by the converter");
            case RS, RSA, RSB, RSC -> throw new IllegalStateException("stochastic rounding needs its random bits: see stochasticUp");
        };
    }

    /**
     * Stochastic rounding (rs): whether significand * 2^-shift goes up one unit given n random bits r,
     * by the reading of decision stochastic-rounding (Semantics.StochasticRounding says each). An exact
     * value never moves: its discarded bits are zero, and r < 2^n.
     */
    static boolean stochasticUp(Semantics.StochasticRounding reading, long significand, int shift, int n, long r) {
        if (shift <= 0) {
            return false;
        }
        long top = discarded(significand, shift, n + 1); // floor(f * 2^(n+1)), f the discarded fraction
        long full = 1L << n;
        return switch (reading) {
            case STOCHASTIC_A -> (top >>> 1) + r >= full;
            case STOCHASTIC_B -> top + 2 * r + 1 >= 2 * full;
            case STOCHASTIC_C -> {
                long kept = top >>> 1;
                boolean half = (top & 1) != 0;
                boolean sticky = shift > n + 1 && guard(significand, shift - n - 1) != 0;
                yield kept + (half && (sticky || (kept & 1) != 0) ? 1 : 0) + r >= full;
            }
        };
    }

    /** The first `bits` bits significand * 2^-shift discards, as an unsigned number (shift > 0). */
    static long discarded(long significand, int shift, int bits) {
        if (shift >= bits) {
            return shift - bits >= 64 ? 0 : (significand >>> (shift - bits)) & ((1L << bits) - 1);
        }
        return (significand & ((1L << shift) - 1)) << (bits - shift);
    }
}
