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
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The memory a device and convcert share (convcert-host for a library, or a process device that said
 * SHARED): a file mapped by both (on tmpfs where there is one, with room), in two slots of CAPACITY
 * elements, each slot its inputs, then its outputs, each element in its own width, little-endian, then a
 * guard; after the slots a u32 lane value (random bits, a scale) and a flags byte per element, used by
 * slot 0's batches. The layout is suite/ADAPTERS.md's ("Shared memory").
 *
 * <p>The whole mapping is watched: what a batch uses (its inputs, its outputs, its lane values and flags)
 * is live; everything else holds the mapping's fill, restored when a batch uses less than the one before. A device may
 * write only its batch's outputs (and flags): 64 bytes on each side of every live area are checked after
 * each answer, every byte of the mapping outside them at the end of each case ({@link #stray}).
 */
final class SharedMemory implements AutoCloseable {

    /** Elements a slot holds: a packed batch (PackedRunner.CHUNK); convcert_host.c derives it from the file's size. */
    static final int CAPACITY = 1 << 18;
    /** Bytes of a slot's inputs, and of its outputs: elements of up to 8 bytes. */
    static final long HALF = 8L * CAPACITY;
    /** Bytes after a slot's outputs that no batch uses. */
    static final int GUARD = 64;
    /** One slot: inputs, outputs, room for the guard. */
    static final long SLOT = 2 * HALF + GUARD;
    /** Where the lane values (a u32 per element) start, and the flags (a byte per element) after them. */
    static final long LANES = PackedOperations.SLOTS * SLOT;
    static final long FLAGS = LANES + 4L * CAPACITY;
    /** What the flags hold before every call: no flags byte has these bits, so one left unwritten is a mismatch. */
    static final byte FLAGS_POISON = (byte) 0xE0;
    static final long SIZE = FLAGS + CAPACITY;
    /** Bytes checked on each side of a live area after every answer. */
    static final int WINDOW = 64;

    /** A live area: [start, start + length) of the mapping. */
    private record Area(long start, long length) {
        long end() {
            return start + length;
        }
    }

    /** Live bytes per slot: inputs, outputs; slot 0's lane values and flags. */
    private final long[] liveIn = new long[PackedOperations.SLOTS];
    private final long[] liveOut = new long[PackedOperations.SLOTS];
    private long liveLanes;
    private long liveFlags;
    /**
     * What every byte outside the live areas holds, at the same offset: random bytes drawn for each
     * mapping, so that no conversion of what lies past a batch's inputs gives what lies past its outputs
     * (a repeated byte would: float 0xA5A5A5A5 truncates to bfloat16 0xA5A5).
     */
    private MemorySegment fill;
    private Arena arena;
    private MemorySegment memory;
    private Path file;

    /** A fresh file and mapping, every byte the fill, the last ones released: on /dev/shm where it has room, else the temporary folder. */
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
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        byte[] bytes = new byte[(int) SIZE];
        new SplittableRandom(new SecureRandom().nextLong()).nextBytes(bytes);
        fill = MemorySegment.ofArray(bytes);
        MemorySegment.copy(fill, 0, memory, 0, SIZE);
        java.util.Arrays.fill(liveIn, 0);
        java.util.Arrays.fill(liveOut, 0);
        liveLanes = 0;
        liveFlags = 0;
        return file;
    }

    /** A slot's inputs (part inputs) or outputs, CAPACITY elements of up to 8 bytes. */
    MemorySegment slot(int slot, boolean outputs) {
        return memory.asSlice(slot * SLOT + (outputs ? HALF : 0), HALF);
    }

    /** Removes the file (once the device has mapped it, or has failed to); the mappings stay. */
    void unlink() {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // tmpfs cleans up at reboot; nothing depends on it
        }
    }

    /**
     * A batch of count elements in a slot, inBytes and outBytes each, with lane values (slot 0 only) and
     * flags (flags: the device writes a flags byte per element of slot 0): its live areas; bytes a batch
     * before it used and it does not hold the fill again.
     */
    void use(int slot, int count, int inBytes, int outBytes, boolean lanes, boolean flags) {
        long base = slot * SLOT;
        liveIn[slot] = shrink(base, liveIn[slot], (long) count * inBytes);
        liveOut[slot] = shrink(base + HALF, liveOut[slot], (long) count * outBytes);
        if (slot == 0) {
            liveLanes = shrink(LANES, liveLanes, lanes ? 4L * count : 0);
            liveFlags = shrink(FLAGS, liveFlags, flags ? count : 0);
        }
    }

    private long shrink(long start, long live, long now) {
        if (now < live) {
            MemorySegment.copy(fill, start + now, memory, start + now, live - now);
        }
        return now;
    }

    /** Packs count inputs of bytes each into slot 0's inputs, and their lane values (random bits, scales) where not null. */
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

    /** Fills slot 0's first count outputs of bytes each with the pattern's low bytes, and its flags with FLAGS_POISON. */
    void poisonOutputs(int count, int bytes, long pattern) {
        MemorySegment out = slot(0, true);
        for (int i = 0; i < count; i++) {
            switch (bytes) {
                case 1 -> out.set(ValueLayout.JAVA_BYTE, i, (byte) pattern);
                case 2 -> out.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) pattern);
                case 4 -> out.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) pattern);
                default -> out.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, pattern);
            }
        }
        memory.asSlice(FLAGS, liveFlags).fill(FLAGS_POISON);
    }

    /** Unpacks count outputs of bytes each from slot 0's outputs, and copies their flags where flags is not null. */
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

    /** The live areas, in order. */
    private List<Area> live() {
        List<Area> areas = new ArrayList<>();
        for (int s = 0; s < PackedOperations.SLOTS; s++) {
            areas.add(new Area(s * SLOT, liveIn[s]));
            areas.add(new Area(s * SLOT + HALF, liveOut[s]));
        }
        areas.add(new Area(LANES, liveLanes));
        areas.add(new Area(FLAGS, liveFlags));
        return areas;
    }

    /**
     * Where a byte outside the live areas no longer holds the fill: within WINDOW bytes of the live areas
     * (whole: false; after each answer), or anywhere in the mapping (whole: true; at the end of a case).
     * A description naming the offset, or null.
     */
    String stray(boolean whole) {
        long from = 0;
        for (Area area : live()) {
            String found = strayIn(from, area.start(), whole);
            if (found != null) {
                return found;
            }
            from = area.end();
        }
        return strayIn(from, SIZE, whole);
    }

    /** The gap [from, to) between live areas: whole, or its WINDOW bytes at each end. */
    private String strayIn(long from, long to, boolean whole) {
        long at = whole || to - from <= 2 * WINDOW ? firstChanged(from, to) : firstChanged(from, from + WINDOW);
        if (at < 0 && !whole && to - from > 2 * WINDOW) {
            at = firstChanged(to - WINDOW, to);
        }
        return at < 0 ? null : "offset " + at + " (" + place(at) + ") of the shared memory, outside the batch's outputs";
    }

    /** The first byte in [from, to) that is not the fill, or -1. */
    private long firstChanged(long from, long to) {
        long m = MemorySegment.mismatch(memory, from, to, fill, from, to);
        return m < 0 ? -1 : from + m;
    }

    /** Where an offset lies, in the layout's words. */
    static String place(long at) {
        if (at >= FLAGS) {
            return "flags byte " + (at - FLAGS);
        }
        if (at >= LANES) {
            return "lane values, byte " + (at - LANES);
        }
        long slot = at / SLOT;
        long within = at % SLOT;
        return "slot " + slot + (within < HALF ? " inputs, byte " + within
                : within < 2 * HALF ? " outputs, byte " + (within - HALF) : " guard, byte " + (within - 2 * HALF));
    }

    @Override
    public void close() {
        unlink();
        file = null;
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
