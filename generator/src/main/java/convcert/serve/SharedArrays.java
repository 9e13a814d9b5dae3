package convcert.serve;

import convcert.common.UsageException;
import convcert.reference.Converter;
import convcert.reference.Operands;
import convcert.spec.Format;
import convcert.spec.ScaleLane;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.LongStream;

/**
 * The arrays of a convert request, in a file the client mapped: count inputs at byte in, each the
 * source's bytes little-endian (a format narrower than a byte in the low bits of one); with lanes, count
 * signed 64-bit lane values at byte lanes (stochastic rounding's random bits, or a scale's K); the
 * outputs, the destination's bytes each, written at byte out. Converted in chunks on every core.
 */
final class SharedArrays {

    /** Elements a worker converts at a time: big enough to amortise a call, small enough to share out. */
    private static final int CHUNK = 1 << 16;
    private static final ThreadLocal<long[][]> BUFFERS = ThreadLocal.withInitial(() -> new long[][] {new long[CHUNK], new long[CHUNK]});

    private SharedArrays() {
    }

    /** Why lane value i is refused: a scale K out of range, or random bits wider than the pair's. */
    private static String laneError(Operands operands, long i, long lane) {
        ScaleLane scale = operands.scale();
        String range = scale == null ? "" : "the scale's range " + scale.min() + " to " + scale.max();
        if (scale == null || operands.randomBits() == 0) {
            return "lane " + i + ": " + lane + " is outside " + (scale != null ? range : "the " + operands.randomBits() + " random bits");
        }
        return "lane " + i + ": K " + (int) lane + " and random bits 0x" + Long.toHexString(lane >>> 32) + ": K must be in "
                + range + " and the random bits fit in " + operands.randomBits() + " bits";
    }

    static void convert(Converter converter, Path file, long count, long in, long out, long lanes) throws IOException {
        Format source = converter.spec().conversion().from();
        Format destination = converter.spec().conversion().to();
        Operands operands = converter.operands();
        boolean laned = operands.laneBits() > 0;
        if (laned != lanes >= 0) {
            throw new UsageException(laned ? converter.spec().conversion().pairName() + " " + converter.spec().rounding().suffix()
                    + " takes a lane beside each value (" + (operands.scale() != null ? "its scale" : "random bits")
                            + "): give lanes=OFFSET"
                    : converter.spec().conversion().pairName() + " takes no lane (random bits or a scale); lanes=" + lanes + " given");
        }
        try (Arena arena = Arena.ofShared();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            within("in", in, count, source.bytes(), size);
            within("out", out, count, destination.bytes(), size);
            if (laned) {
                within("lanes", lanes, count, 8, size);
            }
            if (count == 0) {
                return;
            }
            MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            long chunks = (count + CHUNK - 1) / CHUNK;
            // The first bad element (one that does not fit its format, a scale out of range) is the one reported.
            long bad = LongStream.range(0, chunks).parallel().map(k -> {
                long first = k * CHUNK;
                int n = (int) Math.min(CHUNK, count - first);
                long[][] buffers = BUFFERS.get();
                long[] values = buffers[0];
                read(memory, in + first * source.bytes(), source.bytes(), values, n);
                for (int i = 0; i < n; i++) {
                    if ((values[i] & ~source.mask()) != 0) {
                        return first + i;
                    }
                }
                long badLane = laned ? withLanes(memory, operands, lanes, first, values, n) : -1;
                if (badLane >= 0) {
                    return count + badLane;
                }
                converter.apply(values, 0, buffers[1], 0, n);
                write(memory, out + first * destination.bytes(), destination.bytes(), buffers[1], n);
                return Long.MAX_VALUE;
            }).min().orElse(Long.MAX_VALUE);
            if (bad != Long.MAX_VALUE) {
                throw bad < count ? new UsageException("element " + bad + ": 0x" + Long.toHexString(read(memory, in, source.bytes(), bad))
                        + " does not fit in " + source.name() + " (" + source.width() + " bits)")
                        : new UsageException(laneError(operands, bad - count, memory.get(LANE, lanes + 8 * (bad - count))));
            }
        }
    }

    /** Puts each value's lane (a scale, random bits or both) above it; the index of the first lane out of range, or -1. */
    private static long withLanes(MemorySegment memory, Operands operands, long lanes, long first, long[] values, int n) {
        ScaleLane scale = operands.scale();
        int randomBits = operands.randomBits();
        for (int i = 0; i < n; i++) {
            long lane = memory.get(LANE, lanes + 8 * (first + i));
            // a scale with random bits (gfx950's _sr_ forms): K in the low 32 bits, the random bits above
            long scaleK = scale != null && randomBits > 0 ? (int) lane : lane;
            long random = scale == null ? lane : randomBits > 0 ? lane >>> 32 : 0;
            if (scale != null && (scaleK < scale.min() || scaleK > scale.max()) || randomBits < 64 && random >>> randomBits != 0) {
                return first + i;
            }
            values[i] = scale == null ? operands.operand(values[i], random)
                    : operands.withRandom(operands.operand(values[i], scale.code(scaleK)), random);
        }
        return -1;
    }

    private static final ValueLayout.OfLong LANE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static void within(String what, long offset, long count, int bytes, long size) {
        if (offset + count * bytes > size) {
            throw new UsageException(what + "=" + offset + ": " + count + " elements of " + bytes + " bytes end past the file's "
                    + size + " bytes");
        }
    }

    private static long read(MemorySegment memory, long at, int bytes, long index) {
        long[] one = new long[1];
        read(memory, at + index * bytes, bytes, one, 1);
        return one[0];
    }

    private static void read(MemorySegment memory, long at, int bytes, long[] values, int n) {
        switch (bytes) {
            case 1 -> {
                for (int i = 0; i < n; i++) {
                    values[i] = memory.get(ValueLayout.JAVA_BYTE, at + i) & 0xFFL;
                }
            }
            case 2 -> {
                for (int i = 0; i < n; i++) {
                    values[i] = memory.get(U16, at + 2L * i) & 0xFFFFL;
                }
            }
            case 4 -> {
                for (int i = 0; i < n; i++) {
                    values[i] = memory.get(U32, at + 4L * i) & 0xFFFFFFFFL;
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    values[i] = memory.get(LANE, at + 8L * i);
                }
            }
        }
    }

    private static void write(MemorySegment memory, long at, int bytes, long[] values, int n) {
        switch (bytes) {
            case 1 -> {
                for (int i = 0; i < n; i++) {
                    memory.set(ValueLayout.JAVA_BYTE, at + i, (byte) values[i]);
                }
            }
            case 2 -> {
                for (int i = 0; i < n; i++) {
                    memory.set(U16, at + 2L * i, (short) values[i]);
                }
            }
            case 4 -> {
                for (int i = 0; i < n; i++) {
                    memory.set(U32, at + 4L * i, (int) values[i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    memory.set(LANE, at + 8L * i, values[i]);
                }
            }
        }
    }
}
