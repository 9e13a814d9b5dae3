package convcert;

import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/** Input sweeps for property-style tests: exhaustive where small, structured and seeded elsewhere. */
public final class Sweeps {

    private Sweeps() {
    }

    /** Low-bit patterns that put a tie, a sticky bit or neither under every rounding position. */
    private static final int[] LOW_PATTERNS = {0x000, 0x001, 0x400, 0x7FF, 0x800, 0x801, 0xC00, 0xFFF};

    /**
     * Every combination of the top 20 bits of a float (sign, exponent, 11 mantissa bits) with
     * LOW_PATTERNS in the low 12 bits, plus one seeded random low part: 9 * 2^20 inputs.
     */
    public static void float32Structured(long seed, LongConsumer sink) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long hi = 0; hi < (1L << 20); hi++) {
            for (int low : LOW_PATTERNS) {
                sink.accept(hi << 12 | low);
            }
            sink.accept(hi << 12 | random.nextInt(1 << 12));
        }
    }

    /** Every pattern of a width up to 16 bits. */
    public static void exhaustive(int width, LongConsumer sink) {
        for (long bits = 0; bits < (1L << width); bits++) {
            sink.accept(bits);
        }
    }

    /**
     * Seeded values of a 32- or 64-bit source: uniform bit patterns, and values whose magnitude is
     * log-uniform with a random number of trailing zero bits (ties and exact values are frequent).
     */
    public static void seeded(long seed, int width, int count, boolean floating, LongConsumer sink) {
        SplittableRandom random = new SplittableRandom(seed);
        long mask = width == 64 ? -1L : (1L << width) - 1;
        for (int i = 0; i < count; i++) {
            long bits = random.nextLong() & mask;
            if ((i & 1) == 1) {
                int keep = random.nextInt(width + 1);
                bits &= keep == width ? mask : ~((1L << (width - keep)) - 1) & mask;
                if (!floating) {
                    bits >>>= random.nextInt(width); // log-uniform magnitude
                }
            }
            sink.accept(bits);
        }
    }
}
