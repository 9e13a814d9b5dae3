package convcert.reference;

/**
 * A mutable {@link Decoded}: the conversion loop decodes into one of these per batch instead of
 * allocating a record per value (measured: the record cost 40 bytes and most of the time per value).
 */
final class Unpacked {
    Decoded.Kind kind;
    boolean negative;
    long significand;
    int exponent;
    long payload;

    Unpacked set(Decoded.Kind kind, boolean negative, long significand, int exponent, long payload) {
        this.kind = kind;
        this.negative = negative;
        this.significand = significand;
        this.exponent = exponent;
        this.payload = payload;
        return this;
    }

    /** Multiplies a finite value by 2^k (a fixed-point code read as its integer). */
    Unpacked scaledBy(int k) {
        exponent += k;
        return this;
    }

    Unpacked set(Decoded d) {
        return set(d.kind(), d.negative(), d.significand(), d.exponent(), d.payload());
    }

    Decoded toDecoded() {
        return new Decoded(kind, negative, significand, exponent, payload);
    }
}
