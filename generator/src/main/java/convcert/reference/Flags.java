package convcert.reference;

import convcert.common.UsageException;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;

/**
 * The IEEE 754 exception flags one conversion raises, in Berkeley SoftFloat's encoding (RISC-V's
 * fflags has the same bits). They follow from the input's exact value and the result alone, so every
 * conversion path (kernels included) gets them the same way:
 * <ul>
 * <li>invalid: a NaN or infinity to an integer, a finite value whose rounded integer is out of range,
 * a signaling NaN (quiet bit clear, in a format with infinities) to a floating format;</li>
 * <li>overflow: the value rounded to the destination's precision with an unbounded exponent exceeds
 * the largest finite value (or, by decision overflow-flag, the value itself does), saturated or not;
 * it raises inexact too;</li>
 * <li>underflow: the value is tiny (below the smallest normal magnitude: after rounding as for
 * overflow, or before rounding, decision tininess) and, by decision underflow-flag, inexact or
 * not;</li>
 * <li>inexact: the result's value differs from the input's;</li>
 * <li>infinite (division by zero) is never raised by a conversion.</li>
 * </ul>
 * An infinity or a quiet NaN converted to a floating format raises nothing; an infinity to a format
 * without one raises what decision infinite-input-flags says.
 */
public final class Flags {

    public static final int INEXACT = 0x01;
    public static final int UNDERFLOW = 0x02;
    public static final int OVERFLOW = 0x04;
    public static final int INFINITE = 0x08;
    public static final int INVALID = 0x10;

    /** The flags in SoftFloat's order of bits, with the names TestFloat prints. */
    public static final List<String> NAMES = List.of("inexact", "underflow", "overflow", "infinite", "invalid");

    private final FormatCodec src;
    private final FormatCodec dst;
    private final Rounding mode;
    private final boolean tininessAfter;
    private final boolean underflowWhenInexact;
    private final boolean overflowAfter;
    private final boolean quietE5m2;
    private final int infiniteInput;
    private final Decoded max;

    Flags(Case c, Semantics s, FormatCodec src, FormatCodec dst) {
        this.src = src;
        this.dst = dst;
        this.mode = c.rounding();
        this.tininessAfter = s.get(Semantics.TININESS) == Semantics.Tininess.AFTER_ROUNDING;
        this.underflowWhenInexact = s.get(Semantics.UNDERFLOW_FLAG) == Semantics.UnderflowFlag.WHEN_INEXACT;
        this.overflowAfter = s.get(Semantics.OVERFLOW_FLAG) == Semantics.OverflowFlag.AFTER_ROUNDING;
        this.quietE5m2 = s.get(Semantics.E5M2_SIGNALING_NAN) == Semantics.E5m2SignalingNan.QUIET;
        this.infiniteInput = dst.isInteger() ? INVALID : dst.hasInfinity() ? 0 : switch (s.get(Semantics.INFINITE_INPUT_FLAGS)) {
            case NONE -> 0;
            case OVERFLOW_INEXACT -> OVERFLOW | INEXACT;
            case INVALID -> INVALID;
        };
        this.max = dst.isInteger() ? null : dst.decode(dst.largestFinite(false));
        if (mode == Rounding.RH || mode.stochastic()) {
            throw new UsageException("flags are defined for the IEEE rounding modes, not " + mode.suffix());
        }
        if (c.conversion().scale() != null) {
            throw new UsageException("flags of scaled conversions (" + c.conversion().pairName() + ") are not modelled yet");
        }
    }

    /** The flags converting input to output raises. */
    public int of(long input, long output) {
        Decoded x = src.decode(input);
        switch (x.kind()) {
            case ZERO -> {
                return 0;
            }
            case INFINITE -> {
                return infiniteInput;
            }
            case NAN -> {
                boolean signaling = src.hasInfinity() && x.payload() >= 0 // quiet bit (the payload's first) clear
                        && !(quietE5m2 && src.format().width() == 8);
                return dst.isInteger() || signaling ? INVALID : 0;
            }
            default -> {
                return dst.isInteger() ? toInteger(x) : toFloating(x, dst.decode(output));
            }
        }
    }

    private int toInteger(Decoded x) {
        long magnitude;
        int guard = 0;
        if (x.exponent() >= 0) {
            if (x.exponent() > Long.numberOfLeadingZeros(x.significand())) {
                return INVALID; // at least 2^64
            }
            magnitude = x.significand() << x.exponent();
        } else {
            int shift = -x.exponent();
            guard = Rounder.guard(x.significand(), shift);
            long kept = Rounder.kept(x.significand(), shift);
            magnitude = Rounder.increments(mode, x.negative(), kept, guard) ? kept + 1 : kept;
        }
        long limit = x.negative() ? dst.integerMin() : dst.integerMax(); // the smallest's bits are its magnitude
        if (Long.compareUnsigned(magnitude, limit) > 0) {
            return INVALID;
        }
        return guard != 0 ? INEXACT : 0;
    }

    private int toFloating(Decoded x, Decoded result) {
        int precision = 64 - Long.numberOfLeadingZeros(max.significand()); // the largest finite value is normal
        // x rounded to the destination's precision with an unbounded exponent range
        long significand = x.significand();
        int exponent = x.exponent();
        int excess = 64 - Long.numberOfLeadingZeros(significand) - precision;
        if (excess > 0) {
            long kept = Rounder.kept(significand, excess);
            int guard = Rounder.guard(significand, excess);
            significand = Rounder.increments(mode, x.negative(), kept, guard) ? kept + 1 : kept;
            exponent += excess;
        }
        boolean overflow = overflowAfter ? compare(significand, exponent, max.significand(), max.exponent()) > 0
                : compare(x.significand(), x.exponent(), max.significand(), max.exponent()) > 0;
        int binade = exponent + 63 - Long.numberOfLeadingZeros(significand);
        boolean tiny = (tininessAfter ? binade : x.binade()) < dst.minExponent();
        boolean inexact = result.kind() != Decoded.Kind.FINITE
                || compare(result.significand(), result.exponent(), x.significand(), x.exponent()) != 0;
        int flags = inexact ? INEXACT : 0;
        if (overflow) {
            flags |= OVERFLOW | INEXACT;
        }
        if (tiny && (inexact || !underflowWhenInexact)) {
            flags |= UNDERFLOW;
        }
        return flags;
    }

    /** Compares a * 2^ea with b * 2^eb, both positive. */
    private static int compare(long a, int ea, long b, int eb) {
        int ba = ea + 63 - Long.numberOfLeadingZeros(a);
        int bb = eb + 63 - Long.numberOfLeadingZeros(b);
        if (ba != bb) {
            return Integer.compare(ba, bb);
        }
        return Long.compareUnsigned(a << Long.numberOfLeadingZeros(a), b << Long.numberOfLeadingZeros(b));
    }

    /** TestFloat's words for a set of flags, e.g. "inexact underflow"; "none" for none. */
    public static String describe(int flags) {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            if ((flags & 1 << i) != 0) {
                words.add(NAMES.get(i));
            }
        }
        return words.isEmpty() ? "none" : String.join(" ", words);
    }
}
