package convcert.suite.diagnosis;

import convcert.reference.FormatCodec;

/**
 * A source's input space cut into cells of consecutive bit patterns by their top bits (for binary32: sign,
 * exponent and three leading fraction bits, 2^20 inputs a cell; an input of a format of up to 12 bits is a cell
 * of its own). A cause is checked cell by cell, and its scope is the cells where it holds: regions a person
 * names (a binade band, one sign, the subnormals) are unions of cells. A lane above the value (random bits, a
 * scale) does not choose the cell.
 */
public record Cells(int valueBits, int cellBits, long valueMask) {

    /** At most this many top bits choose a cell. */
    static final int TOP = 12;

    public static Cells of(FormatCodec source) {
        int width = source.format().width();
        return new Cells(width, Math.min(TOP, width), source.mask());
    }

    public int count() {
        return 1 << cellBits;
    }

    public int of(long operand) {
        return (int) ((operand & valueMask) >>> (valueBits - cellBits));
    }

    /** The first input of a cell. */
    public long first(int cell) {
        return (long) cell << (valueBits - cellBits);
    }

    /** How many inputs a cell holds. */
    public long size() {
        return 1L << (valueBits - cellBits);
    }
}
