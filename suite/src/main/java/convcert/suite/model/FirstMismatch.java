package convcert.suite.model;

import java.util.List;

/**
 * One of the first mismatches of a failing case, as data: the writers (report.ReportText) make its
 * line. A value conversion, its exception flags, a block of a block-scaled format, or an OpenCL memory vector.
 */
public sealed interface FirstMismatch {

    /** A bit pattern as reports show it: hex, and what it reads as ("1.0", "nan", "not a 6-bit fp6_e2m3 value"). */
    record Shown(String bits, String reads) {
    }

    /** A value the implementation converted wrongly; inputFields: the input's fields ("0.01111.0000000000"). */
    record Value(Shown input, String inputFields, Shown expected, Shown actual, MismatchKind kind) implements FirstMismatch {
    }

    /**
     * A right result with the wrong exception flags: expected and actual are the flags as two hex digits
     * with their names ("03 (inexact underflow)").
     */
    record Flags(Shown input, String inputFields, Shown result, String expected, String actual) implements FirstMismatch {
    }

    /**
     * A block with wrong outputs: its index in the case, the first wrong values (at most SHOWN), how many
     * more there are, and the block's inputs in hex.
     */
    record Block(long block, List<BlockValue> wrong, int moreWrong, List<String> inputs) implements FirstMismatch {

        public static final int SHOWN = 4;

        public Block {
            wrong = List.copyOf(wrong);
            inputs = List.copyOf(inputs);
        }
    }

    /** One wrong output of a block; part names it: "scale", "element 3" or "value 7". */
    record BlockValue(String part, Shown expected, Shown actual, MismatchKind kind) {
    }

    /**
     * An OpenCL memory vector: p's byte offset, the function's offset argument, the data stored (hex, or
     * null for loads), and either the bytes expected (hex) or the refusal expected (the reference's
     * outcome, "misaligned"); answered: whether the adapter gave the vector any result; actual: the bytes
     * it gave (hex), or null when it refused or did not answer.
     */
    record Memory(long pointer, long offset, String data, String expectedBytes, String expectedRefusal, boolean answered,
                  String actual) implements FirstMismatch {
    }
}
