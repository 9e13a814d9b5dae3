package convcert.reference;

import convcert.spec.Rounding;

/** Stochastic rounding (rs and its named readings): the random bits beside a value decide its rounding. */
final class StochasticRounder {

    private final Semantics.StochasticRounding reading;
    private final int randomBits;
    private final Rounding mode;
    private final FormatCodec src;
    private final FormatCodec dst;
    private final int maxExponent;

    StochasticRounder(Semantics.StochasticRounding reading, int randomBits, Rounding mode, FormatCodec src, FormatCodec dst) {
        this.reading = reading;
        this.randomBits = randomBits;
        this.mode = mode;
        this.src = src;
        this.dst = dst;
        this.maxExponent = dst.maxExponent();
    }

    boolean roundsUp(long significand, int shift, long random, Trace t) {
        boolean up = Rounder.stochasticUp(reading, significand, shift, randomBits, random);
        if (t != null) t.note("stochastic: random bits 0x" + Long.toHexString(random) + " (" + randomBits + ") with the top "
                + randomBits + " discarded bits 0x" + Long.toHexString(shift > 0 ? Rounder.discarded(significand, shift,
                randomBits) : 0) + ": " + (up ? "rounds up" : "truncates") + (mode == Rounding.RS ? " (decision stochastic-rounding="
                + Semantics.optionName(reading) + ")" : " (" + mode.suffix() + " reads them as "
                + Semantics.optionName(reading) + ")"));
        return up;
    }

    /** What Converter.discardedBeforeRandom answers for a value times 2^scale: the top randomBits discarded bits, or -1. */
    long discardedBefore(long bits, int scale) {
        Unpacked d = src.unpack(bits, new Unpacked());
        if (randomBits == 0 || d.kind != Decoded.Kind.FINITE || dst.isInteger()) {
            return -1;
        }
        d.exponent += scale;
        int e = d.exponent + 63 - Long.numberOfLeadingZeros(d.significand);
        int shift = e > maxExponent ? 0 : dst.quantum(e) - d.exponent;
        return shift <= 0 || Rounder.guard(d.significand, shift) == 0 ? -1 : Rounder.discarded(d.significand, shift, randomBits);
    }
}
