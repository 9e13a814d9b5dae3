package convcert.suite.adapters;

import convcert.spi.AdapterException;
import convcert.spi.MemoryCase;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A MEMORY batch of the process protocol (suite/ADAPTERS.md): as sent, the header line, the distinct
 * memory images once, then per vector pointer, offset, image index and data, little-endian; as
 * answered, per vector a length and the result's bytes.
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

    /** The answer's results after 'OK count': per vector a length (-1: refused) and that many bytes. */
    static void read(DeviceProcess device, MemoryCase c, byte[][] results, int count) throws IOException, AdapterException {
        for (int i = 0; i < count; i++) {
            byte[] length = device.readBytes(4);
            if (length.length != 4) {
                throw device.failure("short payload in the answer to " + c.name());
            }
            int n = (length[0] & 0xFF) | (length[1] & 0xFF) << 8 | (length[2] & 0xFF) << 16 | (length[3] & 0xFF) << 24;
            if (n < -1 || n > (1 << 24)) {
                throw device.failure("garbage: result length " + n);
            }
            results[i] = n < 0 ? null : device.readBytes(n);
            if (results[i] != null && results[i].length != n) {
                throw device.failure("short payload in the answer to " + c.name());
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
