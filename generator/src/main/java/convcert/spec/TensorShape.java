package convcert.spec;

import java.util.Locale;

/**
 * One row of tensors.csv: a whole tensor of rows x columns values (row-major) quantized into blocks of a
 * block format (blocks.csv), each block size consecutive values along a row or down a column, a last
 * partial block where the axis is not a multiple of the size (it reads as if padded with zeros), and its
 * scales stored in a named layout.
 *
 * <p>The scales form a grid (outer, inner): outer the axis the blocks do not run along (rows for blocks
 * along a row), inner the block's index along its axis. {@link ScaleLayout#PLAIN} stores them in the
 * data's orientation, row-major ([rows][blocks per row], or [blocks per column][columns]);
 * {@link ScaleLayout#SWIZZLED_128X4} in cuBLAS's tiled layout for block-scaled GEMMs (the grid padded to
 * 128 outer x 4 inner, tiles of 512 bytes in (outer tile, inner tile) row-major order, within a tile
 * the scale of (o, i) at (o % 32) x 16 + (o / 32 % 4) x 4 + i % 4), as TransformerEngine's swizzle and
 * torchao's to_blocked write it; {@link ScaleLayout#SHUFFLED_256X8} in AMD's pre-shuffled layout for
 * gfx950's MX GEMMs (the grid padded to 256 outer x 8 inner, viewed as (outer / 32, 2, 16, inner / 8, 2,
 * 4), permuted to axes (0, 3, 5, 2, 4, 1) and stored row-major), as aiter's e8m0_shuffle and
 * rocm-libraries' mxDataGenerator PreSwizzle write it.
 *
 * <p>A rotation (null for none) takes each block's values through a Hadamard transform before they are
 * quantized; its blocks are whole (the axis a multiple of the block size).
 */
public record TensorShape(BlockFormat block, int rows, int columns, Along along, ScaleLayout layout, Rotation rotation)
        implements BlockExtent {

    /** The axis a block runs along: consecutive values of a row, or of a column. */
    public enum Along { ROW, COLUMN }

    /** How the scale grid is stored. */
    public enum ScaleLayout {
        PLAIN, SWIZZLED_128X4, SHUFFLED_256X8;

        public String word() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The layout a word names, or null. */
        public static ScaleLayout parse(String word) {
            for (ScaleLayout l : values()) {
                if (l.word().equals(word)) {
                    return l;
                }
            }
            return null;
        }
    }

    /** Values (and elements) of the tensor. */
    public int values() {
        return rows * columns;
    }

    /** The scale grid's outer extent: the rows for blocks along a row, the columns otherwise. */
    public int outer() {
        return along == Along.ROW ? rows : columns;
    }

    /** Blocks along the axis: ceil(axis / size). */
    public int inner() {
        int axis = along == Along.ROW ? columns : rows;
        return (axis + block.size() - 1) / block.size();
    }

    /** Blocks in the tensor. */
    public int blocks() {
        return outer() * inner();
    }

    /** Entries of the stored scale layout, padding included. */
    public int scales() {
        return switch (layout) {
            case PLAIN -> blocks();
            case SWIZZLED_128X4 -> roundUp(outer(), 128) * roundUp(inner(), 4);
            case SHUFFLED_256X8 -> roundUp(outer(), 256) * roundUp(inner(), 8);
        };
    }

    /** Where the scale of block (o, i) of the grid is stored. */
    public int scaleSlot(int o, int i) {
        return switch (layout) {
            case PLAIN -> along == Along.ROW ? o * inner() + i : i * outer() + o;
            case SWIZZLED_128X4 -> ((o / 128) * (roundUp(inner(), 4) / 4) + i / 4) * 512 + (o % 32) * 16 + (o / 32 % 4) * 4 + i % 4;
            // (o, i) = (32a + 16b + c, 8d + 4e + f) goes to (a, d, f, c, e, b) of shape (., inner / 8, 4, 16, 2, 2)
            case SHUFFLED_256X8 -> (o / 32) * 32 * roundUp(inner(), 8) + (i / 8) * 256 + (i % 4) * 64 + (o % 16) * 4
                    + (i / 4 % 2) * 2 + o / 16 % 2;
        };
    }

    /** The row-major index of value j (0 <= j < size) of block (o, i), or -1 past the tensor's edge. */
    public int position(int o, int i, int j) {
        int along = i * block.size() + j;
        if (along >= (this.along == Along.ROW ? columns : rows)) {
            return -1;
        }
        return this.along == Along.ROW ? o * columns + along : along * columns + o;
    }

    private static int roundUp(int n, int m) {
        return (n + m - 1) / m * m;
    }
}
