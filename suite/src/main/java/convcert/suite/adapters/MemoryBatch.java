package convcert.suite.adapters;

import convcert.spi.MemoryCase;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A MEMORY batch of the process protocol (suite/ADAPTERS.md), as sent: the header line, the distinct
 * memory images once, then per vector pointer, offset, image index and data, little-endian.
 */
final class MemoryBatch {

    private MemoryBatch() {
    }

    static void write(OutputStream out, MemoryCase c, long[] pointers, long[] offsets, byte[][] memories, byte[][] data,
                      int count) throws IOException {
        IdentityHashMap<byte[], Integer> images = new IdentityHashMap<>();
        List<byte[]> distinct = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (memories[i] != null && !images.containsKey(memories[i])) {
                images.put(memories[i], distinct.size());
                distinct.add(memories[i]);
            }
    }
    out.write(("MEMORY " + c.function() + " " + c.type() + " " + c.n() + " " + (c.rounding().isEmpty() ? "-" : c.rounding())
            + " " + (c.toType().isEmpty() ? "-" : c.toType()) + " " + c.toN() + " " + count + "\n")
            .getBytes(StandardCharsets.US_ASCII));
    DataOutputStream le = new DataOutputStream(out);
    writeInt(le, distinct.size());
    for (byte[] image : distinct) {
        writeInt(le, image.length);
        le.write(image);
    }
    for (int i = 0; i < count; i++) {
        writeLong(le, pointers[i]);
        writeLong(le, offsets[i]);
        writeInt(le, memories[i] == null ? -1 : images.get(memories[i]));
        writeInt(le, data[i] == null ? 0 : data[i].length);
        if (data[i] != null) {
            le.write(data[i]);
        }
    }
    }

    private static void writeInt(DataOutputStream out, int v) throws IOException {
        out.writeInt(Integer.reverseBytes(v));
    }

    private static void writeLong(DataOutputStream out, long v) throws IOException {
        out.writeLong(Long.reverseBytes(v));
    }
}
