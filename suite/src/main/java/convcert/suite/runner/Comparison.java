package convcert.suite.runner;

import convcert.reference.FormatCodec;
import convcert.reference.NaNs;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spi.MemoryCase;
import convcert.suite.diagnosis.Judge;
import java.util.Arrays;

/**
 * The one rule by which an actual result agrees with the expected one: the same bits, or, under the
 * decision nan-comparison=any, both NaN of the destination format. The runners, the diagnosis and
 * score all judge by it. Bits beyond the format's width are a wrong answer, never noise to mask.
 */
public final class Comparison implements Judge {

    private final Reference reference;
    private final boolean anyNaN;

    private Comparison(Reference reference) {
        this.reference = reference;
        this.anyNaN = reference.semantics().get(Semantics.NAN_COMPARISON) == Semantics.NanComparison.ANY;
    }

    public static Comparison of(Reference reference) {
        return new Comparison(reference);
    }

    /** Whether actual agrees with expected, both patterns of the codec's format. */
    @Override
    public boolean same(FormatCodec codec, long expected, long actual) {
        return expected == actual || (anyNaN && NaNs.isNaN(codec, expected) && NaNs.isNaN(codec, actual));
    }

    /** The bits themselves, or for every NaN one pattern (all ones beyond any format's width) where any NaN agrees. */
    @Override
    public long canonical(FormatCodec codec, long bits) {
        return anyNaN && NaNs.isNaN(codec, bits) ? -1L : bits;
    }

    /** Whether bits of the codec's format agree with every NaN by this rule (nan-comparison=any and bits a NaN). */
    public boolean agreesWithNaN(FormatCodec codec, long bits) {
        return anyNaN && NaNs.isNaN(codec, bits);
    }

    /**
     * The first n bytes of a memory case's result. The _half functions hold NaN elements (halves
     * stored, floats loaded, little-endian) that agree by the same rule as conversions.
     */
    public boolean sameBytes(MemoryCase c, byte[] expected, byte[] actual, int n) {
        if (Arrays.equals(expected, 0, n, actual, 0, n)) {
            return true;
        }
        if (!anyNaN || !c.function().contains("_half")) {
            return false;
        }
        FormatCodec element = reference.codec(reference.format(c.isStore() ? "half" : "float"));
        int width = element.format().width() / 8;
        for (int i = 0; i + width <= n; i += width) {
            if (!same(element, littleEndian(expected, i, width), littleEndian(actual, i, width))) {
                return false;
            }
        }
        return true;
    }

    private static long littleEndian(byte[] bytes, int offset, int width) {
        long v = 0;
        for (int k = width - 1; k >= 0; k--) {
            v = v << 8 | (bytes[offset + k] & 0xFF);
        }
        return v;
    }
}
