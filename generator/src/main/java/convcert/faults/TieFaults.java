package convcert.faults;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import java.math.BigDecimal;

/**
 * The ties faults: at an input exactly halfway between its two neighbours the result goes elsewhere than
 * to the even one (away from zero, toward zero, up), everywhere or only below the smallest normal value
 * (a subnormal path written apart from the normal one). Batches run the converters' fast paths and test
 * for a tie only where the other mode's result differs from the case's.
 */
final class TieFaults {

    private final Converter rn;
    private final Converter other;
    private final Converter away;
    private final Converter towardZero;
    private final FormatCodec src;
    private final FormatCodec dst;
    /** Above the largest finite value the next grid point stands where the format ends (null: an integer destination). */
    private final BigDecimal beyond;
    private final double beyondDouble;
    /** Only ties whose input lies below the smallest normal value of the destination. */
    private final boolean subnormalOnly;
    /**
     * Whether the tie test may add doubles: a source of at most 32 bits has values of at most 32 significant bits,
     * and so have the neighbours of a value that is not an integer (an integer destination's are below 2^32).
     */
    private final boolean doubles;

    private TieFaults(Converter rn, Converter other, Converter away, Converter towardZero, boolean subnormalOnly) {
        this.rn = rn;
        this.other = other;
        this.away = away;
        this.towardZero = towardZero;
        this.src = rn.source();
        this.dst = rn.destination();
        this.subnormalOnly = subnormalOnly;
        this.beyond = dst.isInteger() ? null : Values.exact(false, dst.maxKept() + 1, dst.quantum(dst.maxExponent()));
        this.beyondDouble = beyond == null ? 0 : Math.scalb((double) (dst.maxKept() + 1), dst.quantum(dst.maxExponent()));
        this.doubles = src.format().width() <= 32 && (dst.isInteger() || dst.format().width() <= 32);
    }

    /** The fault: at a tie the result is other's (rn's elsewhere); subnormalOnly: only ties below the smallest normal. */
    static Faulty of(Converter rn, Converter other, Converter away, Converter towardZero, boolean subnormalOnly) {
        TieFaults t = new TieFaults(rn, other, away, towardZero, subnormalOnly);
        return new Faulty() {
            @Override
            public long apply(long x) {
                long r = rn.apply(x);
                long o = other.apply(x);
                return o != r && t.tie(x) ? o : r;
            }

            @Override
            public void apply(long[] in, long[] right, long[] out, int from, int to) {
                if (right == null) {
                    right = new long[to];
                    rn.apply(in, from, right, from, to - from);
                }
                other.apply(in, from, out, from, to - from);
                for (int i = from; i < to; i++) {
                    if (out[i] != right[i] && !t.tie(in[i])) {
                        out[i] = right[i];
                    }
                }
            }
        };
    }

    /** Whether an input lies exactly halfway between its neighbours (away from zero and toward it): any mode's ties. */
    static java.util.function.LongPredicate test(Converter away, Converter towardZero) {
        return new TieFaults(away, away, away, towardZero, false)::tie;
    }

    /** Whether x lies exactly halfway between its neighbours (toward zero and away), within the fault's reach. */
    boolean tie(long x) {
        long a = away.apply(x);
        long z = towardZero.apply(x);
        if (a == z) {
            return false; // exact
        }
        Decoded dx = src.decode(x);
        Decoded da = dst.decode(a);
        Decoded dz = dst.decode(z);
        // a finite input rounded away past the largest finite value: infinity, or NaN where there is none
        boolean overflowed = da.kind() == Decoded.Kind.INFINITE || (da.kind() == Decoded.Kind.NAN && !dst.hasInfinity());
        if (dx.kind() != Decoded.Kind.FINITE || (da.kind() == Decoded.Kind.NAN && !overflowed)
                || (overflowed && beyond == null)) {
            return false;
        }
        if (subnormalOnly && (dst.isInteger() || dx.binade() >= dst.minExponent())) {
            return false;
        }
        if (doubles) { // exact: neighbours of at most 32 significant bits, one unit apart, sum within 53 bits
            double up = overflowed ? beyondDouble : magnitudeDouble(da);
            return 2 * magnitudeDouble(dx) == up + magnitudeDouble(dz);
        }
        BigDecimal up = overflowed ? beyond : magnitude(da);
        return magnitude(dx).multiply(BigDecimal.TWO).compareTo(up.add(magnitude(dz))) == 0;
    }

    private static double magnitudeDouble(Decoded d) {
        return d.kind() == Decoded.Kind.FINITE ? Math.scalb((double) d.significand(), d.exponent()) : 0;
    }

    private static BigDecimal magnitude(Decoded d) {
        return d.kind() == Decoded.Kind.FINITE ? Values.exact(false, d.significand(), d.exponent()) : BigDecimal.ZERO;
    }
}
