package convcert.opencl;

import java.util.HexFormat;
import java.util.Locale;

/**
 * One vector of a memory operation. pointer is p's byte offset into the memory image; offset the
 * function's offset argument. memory is the image a load reads or a store starts from; data the value
 * a store writes or as_type reinterprets. expected is what the reference says: the loaded value, the
 * image after a store, or the reinterpreted value; compared are its first comparedBytes (as_type 4->3
 * leaves the 4th element undefined). outcome names an error or implementation-defined result instead.
 */
public record MemoryVector(long pointer, long offset, byte[] memory, byte[] data, byte[] expected, int comparedBytes,
                           Outcome outcome, String coverage) {

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
