package convcert.suite.adapters;

import convcert.spi.PackedOperations;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The memory a device and convcert share (convcert-host for a library, or a process device that said
 * SHARED): a file mapped by both (on tmpfs where there is one, with room), in two slots of CAPACITY
 * elements, each slot its inputs, then its outputs, each element in its own width, little-endian, then a
 * guard; after the slots a u32 lane value (random bits, a scale) and a flags byte per element, used by
 * slot 0's batches. The file is removed as soon as the device has mapped it, so nothing is left
 * behind; a restarted device gets a new one. The layout is suite/ADAPTERS.md's ("Shared memory").
 */
final class SharedMemory implements AutoCloseable {

    /** Elements a slot holds (convcert_host.c derives it from the file's size). */
    static final int CAPACITY = 1 << 20;
    /** Bytes of a slot's inputs, and of its outputs: elements of up to 8 bytes. */
    static final long HALF = 8L * CAPACITY;
    /** Bytes after a batch's outputs that must stay as they were poisoned: a library writing past them is caught. */
    static final int GUARD = 64;
    /** One slot: inputs, outputs, room for the guard. */
    static final long SLOT = 2 * HALF + GUARD;
    /** What the outputs hold before a batch of long[]: an output that still reads as this is asked again under AGAIN. */
    static final byte POISON = (byte) 0xA5;
    /** The outputs' fill when such elements are asked again: one that still reads as this was not written. */
    static final byte AGAIN = (byte) 0x5A;
    /** Where the lane values (a u32 per element) start, and the flags (a byte per element) after them. */
    static final long LANES = PackedOperations.SLOTS * SLOT;
    static final long FLAGS = LANES + 4L * CAPACITY;
    /** What the flags hold before every call: no flags byte has these bits, so one left unwritten is a mismatch. */
    static final byte FLAGS_POISON = (byte) 0xE0;
    static final long SIZE = FLAGS + CAPACITY;

    private Arena arena;
    private MemorySegment memory;
    private Path file;

    /** A fresh file and mapping, the last ones released: on /dev/shm where it has room, else the temporary folder. */
    Path renew() throws IOException {
        close();
        Path shm = Path.of("/dev/shm");
        boolean tmpfs = Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).getUsableSpace() > 4 * SIZE;
        file = Files.createTempFile(tmpfs ? shm : Path.of(System.getProperty("java.io.tmpdir")), "convcert-shared-", ".mem");
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.truncate(0);
            channel.write(java.nio.ByteBuffer.wrap(new byte[1]), SIZE - 1);
            memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
        }
        return file;
    }

    /** A slot's inputs (part inputs) or outputs, CAPACITY elements of up to 8 bytes. */
    MemorySegment slot(int slot, boolean outputs) {
        return memory.asSlice(slot * SLOT + (outputs ? HALF : 0), HALF);
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

    /** Poisons the outputs of a batch of count elements of bytes each in a slot, the guard after them, and the flags. */
    void poisonOutputs(int slot, int count, int bytes) {
        poisonOutputs(slot, count, bytes, POISON);
    }

    /** As above, the outputs filled with the given byte (the guard still POISON). */
    void poisonOutputs(int slot, int count, int bytes, byte poison) {
        memory.asSlice(slot * SLOT + HALF, (long) count * bytes).fill(poison);
        memory.asSlice(slot * SLOT + HALF + (long) count * bytes, GUARD).fill(POISON);
        if (slot == 0) {
            memory.asSlice(FLAGS, count).fill(FLAGS_POISON);
        }
    }

    /** Poisons only the guard after count outputs of bytes each in a slot: the suite set the outputs themselves. */
    void poisonGuard(int slot, int count, int bytes) {
        memory.asSlice(slot * SLOT + HALF + (long) count * bytes, GUARD).fill(POISON);
    }

    /** Whether the guard after count outputs of bytes each in a slot is still poison. */
    boolean guardIntact(int slot, int count, int bytes) {
        long start = slot * SLOT + HALF + (long) count * bytes;
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
        MemorySegment out = slot(0, true);
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
