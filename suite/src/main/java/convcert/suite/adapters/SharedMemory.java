package convcert.suite.adapters;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The memory convcert-host and convcert share: a file mapped by both (on tmpfs where there is one),
 * inputs in its first half and outputs in its second, each element in its own width, little-endian;
 * after them and the guard, a u32 lane value (random bits, a scale) and a flags byte per element.
 * The file is removed as soon as the host has mapped it, so nothing is left behind; a restarted host
 * gets a new one.
 */
final class SharedMemory implements AutoCloseable {

    /** Elements of up to 8 bytes a batch may hold: the most the suite sends at once. */
    static final long HALF = 8L << 16;
    /** Bytes after a batch's outputs that must stay as they were poisoned: a library writing past them is caught. */
    static final int GUARD = 64;
    /** What the outputs hold before every call: an output left unwritten reads as this, a mismatch. */
    static final byte POISON = (byte) 0xA5;
    /** Elements a batch may hold (convcert_host.c's MAX_COUNT). */
    static final int MAX_COUNT = 1 << 16;
    /** Where the lane values (a u32 per element) start, and the flags (a byte per element) after them. */
    static final long LANES = 2 * HALF + GUARD;
    static final long FLAGS = LANES + 4L * MAX_COUNT;
    /** What the flags hold before every call: no flags byte has these bits, so one left unwritten is a mismatch. */
    static final byte FLAGS_POISON = (byte) 0xE0;
    private static final long SIZE = FLAGS + MAX_COUNT;

    private Arena arena;
    private MemorySegment memory;
    private Path file;

    /** A fresh file and mapping, the last ones released. */
    Path renew() throws IOException {
        close();
        Path shm = Path.of("/dev/shm");
        Path dir = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        file = Files.createTempFile(dir, "convcert-host-", ".mem");
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.truncate(0);
            channel.write(java.nio.ByteBuffer.wrap(new byte[1]), SIZE - 1);
            memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
        }
        return file;
    }

    /** Removes the file once the host has mapped it; the mappings stay. */
    void unlink() {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // tmpfs cleans up at reboot; nothing depends on it
        }
    }

    /** Packs count inputs of bytes each into the input half, and their lane values (random bits, scales) where not null. */
    void putInputs(long[] inputs, long[] lane, int count, int bytes) {
        for (int i = 0; lane != null && i < count; i++) {
            memory.set(ValueLayout.JAVA_INT_UNALIGNED, LANES + 4L * i, (int) lane[i]);
        }
        for (int i = 0; i < count; i++) {
            switch (bytes) {
                case 1 -> memory.set(ValueLayout.JAVA_BYTE, i, (byte) inputs[i]);
                case 2 -> memory.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) inputs[i]);
                case 4 -> memory.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) inputs[i]);
                default -> memory.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, inputs[i]);
            }
        }
    }

    /** Poisons the outputs of a batch of count elements of bytes each, the guard after them, and the flags. */
    void poisonOutputs(int count, int bytes) {
        memory.asSlice(HALF, (long) count * bytes + GUARD).fill(POISON);
        memory.asSlice(FLAGS, count).fill(FLAGS_POISON);
    }



    /** Whether the guard after count outputs of bytes each is still poison. */
    boolean guardIntact(int count, int bytes) {
        long start = HALF + (long) count * bytes;
        for (long i = 0; i < GUARD; i++) {
            if (memory.get(ValueLayout.JAVA_BYTE, start + i) != POISON) {
                return false;
            }
        }
        return true;
    }

    /** Unpacks count outputs of bytes each from the output half, and copies their flags where flags is not null. */
    void getOutputs(long[] outputs, byte[] flags, int count, int bytes) {
        if (flags != null) {
            MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, FLAGS, flags, 0, count);
        }
        MemorySegment out = memory.asSlice(HALF);
        for (int i = 0; i < count; i++) {
            outputs[i] = switch (bytes) {
                case 1 -> out.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
                case 2 -> out.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i) & 0xFFFFL;
                case 4 -> out.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i) & 0xFFFFFFFFL;
                default -> out.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
            };
        }
    }

    @Override
    public void close() {
        unlink();
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
