package convcert.opencl;

import java.util.HexFormat;
import java.util.Locale;

/**
 * One vector of a memory operation. pointer is p's byte offset into the memory image; offset the
 * function's offset argument. memory is the image a load reads or a store starts from; data the value
 * a store writes or as_type reinterprets. expected is what the reference says: the loaded value, the
 * image after a store, or the reinterpreted value; compared are its first comparedBytes (as_type 4->3
 * leaves the 4th element undefined) but the unjudged ones, where there are (decision aligned-half3-padding).
 * outcome names an error or implementation-defined result instead.
 */
public record MemoryVector(long pointer, long offset, byte[] memory, byte[] data, byte[] expected, int comparedBytes,
                           Outcome outcome, String coverage, Unjudged unjudged) {

    /** Bytes [from, to) of expected that any value satisfies (a store's padding the text leaves to the implementation). */
    public record Unjudged(int from, int to) {
    }

    public MemoryVector(long pointer, long offset, byte[] memory, byte[] data, byte[] expected, int comparedBytes,
                        Outcome outcome, String coverage) {
        this(pointer, offset, memory, data, expected, comparedBytes, outcome, coverage, null);
    }

    /** expected as an actual answer is judged: its unjudged bytes taken from actual (when it has them). */
    public byte[] expectedFor(byte[] actual) {
        if (unjudged == null || expected == null || actual == null || actual.length < unjudged.to()) {
            return expected;
        }
        byte[] e = expected.clone();
        System.arraycopy(actual, unjudged.from(), e, unjudged.from(), unjudged.to() - unjudged.from());
        return e;
    }

    /** The first length bytes of expected in hex, "??" for each byte any value satisfies. */
    public String expectedHex(int length) {
        StringBuilder b = new StringBuilder(hex(java.util.Arrays.copyOf(expected, length)));
        if (unjudged != null) {
            for (int i = unjudged.from(); i < Math.min(unjudged.to(), length); i++) {
                b.replace(2 * i, 2 * i + 2, "??");
            }
        }
        return b.toString();
    }

    public enum Outcome {
        OK, MISALIGNED, SIZE_MISMATCH, EXTENSION_DISABLED, IMPLEMENTATION_DEFINED;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Errors the reference detects; a device never executes them. */
        public boolean negative() {
            return this == MISALIGNED || this == SIZE_MISMATCH || this == EXTENSION_DISABLED;
        }
    }

    public static String hex(byte[] bytes) {
        return bytes == null ? "" : HexFormat.of().withUpperCase().formatHex(bytes);
    }
}
