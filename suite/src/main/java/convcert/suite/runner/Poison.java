package convcert.suite.runner;

import convcert.reference.FormatCodec;
import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * What a packed batch's outputs hold before the implementation answers: drawn at random for each batch from a
 * seed the implementation cannot know, never derived from an expected value (suite/ADAPTERS.md, "What a
 * certificate guarantees"). Into a format narrower than its bytes the poison has a bit above the width set:
 * no answer can be it, so an output reading as it was left unwritten. Into a format that fills its bytes the
 * poison is a random pattern (not a NaN where any NaN agrees with any other): an output that reads as it and
 * agrees with its expected value is asked again (PackedRunner), since it may have been left alone.
 */
final class Poison {

    private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
    private final FormatCodec destination;
    private final Comparison comparison;
    private final int bytes;
    /** Whether no answer can be a poison: the format is narrower than its bytes. */
    final boolean certain;

    Poison(FormatCodec destination, Comparison comparison, int bytes) {
        this.destination = destination;
        this.comparison = comparison;
        this.bytes = bytes;
        this.certain = destination.format().width() < 8 * bytes;
    }

    /** A poison for the next batch. */
    long next() {
        while (true) {
            long p = bytes == 8 ? random.nextLong() : random.nextLong() & ((1L << 8 * bytes) - 1);
            if (certain) {
                return p | 1L << (8 * bytes - 1);
            }
            if (!comparison.agreesWithNaN(destination, p)) {
                return p;
            }
        }
    }
}
