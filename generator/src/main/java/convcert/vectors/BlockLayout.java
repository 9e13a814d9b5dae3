package convcert.vectors;

import convcert.reference.BlockConverter;
import convcert.spec.BlockExtent;
import convcert.spec.Format;
import convcert.spec.TensorShape;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How one side of a block case is stored (.bin files, the process protocol, recordings): the format
 * of each value of a block, in order, each in its format's bytes (VectorBytes); with packed storage,
 * consecutive elements of up to 4 bits share a byte, the first in the low nibble, or in the high one
 * where highFirst (decision nibble-order). Blocks follow one another with nothing between them.
 */
public record BlockLayout(List<Format> formats, boolean packed, boolean highFirst) {

    /** The inputs (or outputs) of a block case. */
    public static BlockLayout of(BlockConverter c, boolean inputs) {
        int n = inputs ? c.inputsPerBlock() : c.outputsPerBlock();
        Format[] formats = new Format[n];
        for (int i = 0; i < n; i++) {
            formats[i] = inputs ? c.inputFormat(i) : c.outputFormat(i);
        }
        return new BlockLayout(List.of(formats), c.block().packed(), c.highNibbleFirst());
    }

    /**
     * The process protocol's batch line (suite/ADAPTERS.md) up to its count: "BLOCKS FROM TO ROUNDING ", or for a
     * tensor case "TENSORS FROM TO ROUNDING ROWS COLUMNS ALONG LAYOUT SIZE STORAGE AMAX ": all a device needs to lay
     * a tensor out without the tables (SIZE values a block, bytes or packed elements, "amax" where the tensor's
     * largest magnitude leads the block side, "-" otherwise), then a rotated tensor's rotation ("hadamard-16:+-...").
     */
    public static String batchLine(BlockConverter c) {
        String pair = c.pairName().replace("->", " ") + " " + c.mode().suffix() + " ";
        return switch (c.block().extent()) {
            case BlockExtent.OneBlock one -> "BLOCKS " + pair;
            case TensorShape t -> "TENSORS " + pair + t.rows() + " " + t.columns() + " "
                    + t.along().name().toLowerCase(Locale.ROOT) + " " + t.layout().word() + " " + t.block().size() + " "
                    + (c.block().packed() ? "packed" : "bytes") + " " + (c.block().twoLevel() ? "amax" : "-") + " "
                    + (t.rotation() == null ? "" : t.rotation().word() + " ");
        };
    }

    /** The same layout with the given nibble order (stored files keep the order they were generated in). */
    public BlockLayout withHighFirst(boolean high) {
        return new BlockLayout(formats, packed, high);
    }

    /** Values per block. */
    public int values() {
        return formats.size();
    }

    private boolean nibble(int i) {
        return packed && formats.get(i).width() <= 4;
    }

    /** Bytes per block. */
    public int bytes() {
        int n = 0;
        for (int i = 0; i < formats.size(); i++) {
            if (nibble(i) && i + 1 < formats.size() && nibble(i + 1)) {
                n++;
                i++; // two nibbles, one byte
            } else {
                n += formats.get(i).bytes();
            }
        }
        return n;
    }

    /** blocks x values() values, block after block, little-endian. */
    public byte[] pack(long[] values, int blocks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(blocks * bytes());
        for (int b = 0; b < blocks; b++) {
            int base = b * values();
            for (int i = 0; i < values(); i++) {
                if (nibble(i) && i + 1 < values() && nibble(i + 1)) {
                    long first = values[base + i] & 0xF;
                    long second = values[base + i + 1] & 0xF;
                    out.write((int) (highFirst ? first << 4 | second : first | second << 4));
                    i++;
                } else {
                    out.writeBytes(VectorFiles.pack(new long[] {values[base + i]}, 1, formats.get(i).width()));
                }
            }
        }
        return out.toByteArray();
    }

    /** The inverse of pack; data holds whole blocks (callers check its length against bytes()). */
    public long[] unpack(byte[] data) {
        int blocks = data.length / bytes();
        long[] values = new long[blocks * values()];
        long[] one = new long[1];
        int at = 0;
        for (int b = 0; b < blocks; b++) {
            int base = b * values();
            for (int i = 0; i < values(); i++) {
                if (nibble(i) && i + 1 < values() && nibble(i + 1)) {
                    int low = data[at] & 0xF;
                    int high = (data[at] >> 4) & 0xF;
                    values[base + i] = highFirst ? high : low;
                    values[base + i + 1] = highFirst ? low : high;
                    at++;
                    i++;
                } else {
                    int n = formats.get(i).bytes();
                    VectorFiles.unpack(Arrays.copyOfRange(data, at, at + n), formats.get(i).width(), one, 1);
                    values[base + i] = one[0];
                    at += n;
                }
            }
        }
        return values;
    }

    /** A block per line: its values from the last to the first, each in its format's hex digits. */
    public String memh(long[] values) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < values.length / values(); k++) {
            for (int i = values() - 1; i >= 0; i--) {
                b.append(formats.get(i).hex(values[k * values() + i]).substring(2));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
