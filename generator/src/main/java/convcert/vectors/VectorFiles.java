package convcert.vectors;

import convcert.common.Sha256;
import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.Lane;
import convcert.spec.VectorBytes;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Writes one case's vectors. Every file is written under a temporary name and renamed when complete,
 * so an interrupted run never leaves a file that looks finished. Returns each file's SHA-256.
 */
public final class VectorFiles {

    private VectorFiles() {
    }

    /**
     * flags: each vector's exception flags (a profile with flags.csv), else null: a flags lane beside
     * expected. Where a case has a lane beside each value (stochastic rounding's random bits, a scale)
     * the inputs are operands and the lane goes to files of its own (.random.bin and .random.memh,
     * .scale.bin and .scale.memh, a CSV column named for it).
     */
    /**
     * path, which must lie inside out: table names are identifiers (CsvTable.Row.identifier), and this
     * checks what they are joined into before anything is written there.
     */
    public static Path inside(Path out, Path path) {
        Path root = out.toAbsolutePath().normalize();
        if (!path.toAbsolutePath().normalize().startsWith(root)) {
            throw new IllegalStateException("refusing to write " + path + ": outside the output folder " + out);
        }
        if (withdrawn(path)) {
            throw new IllegalStateException("not writing " + path + ": its folder was withdrawn");
        }
        return path;
    }

    /** Folders called off (an interrupted generate --check removing its set): nothing more is written there. */
    private static final Set<Path> WITHDRAWN = ConcurrentHashMap.newKeySet();
    /** Files being written now. */
    private static final AtomicInteger WRITING = new AtomicInteger();

    /**
     * Calls off every write into folder, waits (at most timeoutMillis) for those under way to end, and
     * removes the folder: what an interrupt's exit hook does while the writers' threads still run.
     */
    public static void withdraw(Path folder, long timeoutMillis, Consumer<Path> delete) {
        WITHDRAWN.add(folder.toAbsolutePath().normalize());
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        try {
            while (WRITING.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            delete.accept(folder);
            Thread.sleep(100); // a writer between its check and creating a folder: gone the second time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delete.accept(folder);
    }

    private static boolean withdrawn(Path path) {
        Path p = path.toAbsolutePath().normalize();
        return WITHDRAWN.stream().anyMatch(p::startsWith);
    }

    static Map<String, String> write(Path base, VectorFormat format, Converter converter, long[] operands,
                                     long[] expected, byte[] flags, String[] tags) throws IOException {
        FormatCodec source = converter.source();
        FormatCodec destination = converter.destination();
        Lane laneName = converter.lane();
        int laneBits = converter.operands().laneBits();
        long[] inputs = laneName == null ? operands : new long[operands.length];
        long[] lane = laneName == null ? null : new long[operands.length];
        for (int i = 0; lane != null && i < operands.length; i++) {
            inputs[i] = operands[i] & source.mask();
            lane[i] = converter.operands().lane(operands[i]);
        }
        Map<String, String> digests = new LinkedHashMap<>();
        switch (format) {
            case CSV -> digests.put(".csv", atomically(base, ".csv",
                    out -> csv(out, source, destination, inputs, laneName, lane, laneBits, expected, flags, tags)));
            case BIN -> {
                digests.put(".in.bin", atomically(base, ".in.bin", out -> binary(out, inputs, source.format().width())));
                if (lane != null) {
                    digests.put(laneBin(laneName), atomically(base, laneBin(laneName), out -> binary(out, lane, laneBits)));
                }
                digests.put(".expected.bin", atomically(base, ".expected.bin",
                        out -> binary(out, expected, destination.format().width())));
                if (flags != null) {
                    digests.put(".flags.bin", atomically(base, ".flags.bin", out -> out.write(flags)));
                }
            }
            case MEMH -> {
                digests.put(".in.memh", atomically(base, ".in.memh", out -> memh(out, inputs, source.format().width())));
                if (lane != null) {
                    String suffix = "." + laneName.word() + ".memh";
                    digests.put(suffix, atomically(base, suffix, out -> memh(out, lane, laneBits)));
                }
                digests.put(".expected.memh", atomically(base, ".expected.memh",
                        out -> memh(out, expected, destination.format().width())));
                if (flags != null) {
                    long[] widened = new long[flags.length];
                    for (int i = 0; i < flags.length; i++) {
                        widened[i] = flags[i] & 0xFF;
                    }
                    digests.put(".flags.memh", atomically(base, ".flags.memh", out -> memh(out, widened, 8)));
                }
            }
        }
        return digests;
    }

    /** Writes a .csv file atomically; returns its SHA-256. */
    public static String writeText(Path file, String text) throws IOException {
        Path base = file.resolveSibling(file.getFileName().toString().replaceFirst("\\.csv$", ""));
        return atomically(base, ".csv", out -> out.write(text.getBytes(StandardCharsets.US_ASCII)));
    }

    /** Writes base + suffix atomically; returns its SHA-256. */
    public static String writeBytes(Path base, String suffix, byte[] bytes) throws IOException {
        return atomically(base, suffix, out -> out.write(bytes));
    }

    interface Body {
        void write(OutputStream out) throws IOException;
    }

    private static String atomically(Path base, String suffix, Body body) throws IOException {
        Path target = base.resolveSibling(base.getFileName() + suffix);
        Path temp = base.resolveSibling("." + base.getFileName() + suffix + ".partial");
        MessageDigest sha = Sha256.digest();
        WRITING.incrementAndGet();
        try {
            if (withdrawn(target)) {
                throw new IOException("not writing " + target + ": its folder was withdrawn");
            }
            try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16), sha)) {
                body.write(out);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temp);
                throw e;
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            WRITING.decrementAndGet();
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    static final String CSV_HEADER = "input,expected,input_value,expected_value,coverage\n";

    /**
     * The binary file of a case's lane, one element per input of VectorBytes.of(its bits) bytes: ".random.bin",
     * ".scale.bin".
     */
    public static String laneBin(Lane lane) {
        return "." + lane.word() + ".bin";
    }

    /**
     * With a flags lane the header ends ",flags" and each row with the flags as two hex digits; with a
     * lane beside the values the header starts "input,LANE," and each row with its bits in hex after the
     * input (a scale in two's complement where signed).
     */
    private static void csv(OutputStream out, FormatCodec source, FormatCodec destination, long[] inputs, Lane laneName,
                            long[] lane, int laneBits, long[] expected, byte[] flags, String[] tags) throws IOException {
        String header = flags == null ? CSV_HEADER : CSV_HEADER.replace("\n", ",flags\n");
        out.write((lane == null ? header : header.replaceFirst("^input,", "input," + laneName.word() + ","))
                .getBytes(StandardCharsets.US_ASCII));
        StringBuilder line = new StringBuilder(96);
        for (int i = 0; i < inputs.length; i++) {
            line.setLength(0);
            hex(line.append("0x"), inputs[i], source.format().width());
            if (lane != null) {
                hex(line.append(",0x"), lane[i], laneBits);
            }
            hex(line.append(",0x"), expected[i], destination.format().width());
            line.append(',').append(Values.decimal(source, inputs[i]));
            line.append(',').append(Values.decimal(destination, expected[i]));
            line.append(',').append(tags[i]);
            if (flags != null) {
                hex(line.append(','), flags[i] & 0xFF, 8);
            }
            line.append('\n');
            for (int k = 0; k < line.length(); k++) {
                out.write(line.charAt(k));
            }
        }
    }

    private static void binary(OutputStream out, long[] values, int width) throws IOException {
        out.write(pack(values, values.length, width));
    }

    private static void memh(OutputStream out, long[] values, int width) throws IOException {
        StringBuilder line = new StringBuilder(20);
        for (long v : values) {
            line.setLength(0);
            hex(line, v, width).append('\n');
            for (int k = 0; k < line.length(); k++) {
                out.write(line.charAt(k));
            }
        }
    }

    /**
     * The elements of a raw little-endian vector file of the given element width in bits (one byte per
     * element up to 8 bits). Callers check that the length is a whole number of elements.
     */
    public static long[] elements(byte[] data, int width) {
        long[] values = new long[data.length / VectorBytes.of(width)];
        unpack(data, width, values, values.length);
        return values;
    }

    /**
     * The first count values as elements of the given width in bits, little-endian: the byte order of
     * .bin files, of the process adapter's pipe and of the hosts and devices here.
     */
    public static byte[] pack(long[] values, int count, int width) {
        int bytes = VectorBytes.of(width);
        ByteBuffer buffer = ByteBuffer.allocate(count * bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            switch (bytes) {
                case 1 -> buffer.put((byte) values[i]);
                case 2 -> buffer.putShort((short) values[i]);
                case 4 -> buffer.putInt((int) values[i]);
                default -> buffer.putLong(values[i]);
            }
        }
        return buffer.array();
    }

    /** The inverse of pack: count little-endian elements of data into values, zero-extended. */
    public static void unpack(byte[] data, int width, long[] values, int count) {
        ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int bytes = VectorBytes.of(width);
        for (int i = 0; i < count; i++) {
            values[i] = switch (bytes) {
                case 1 -> buffer.get() & 0xFFL; // bits above a narrow element's width stay: readers check them
                case 2 -> buffer.getShort() & 0xFFFFL;
                case 4 -> buffer.getInt() & 0xFFFFFFFFL;
                default -> buffer.getLong();
            };
        }
    }

    private static final char[] DIGITS = "0123456789ABCDEF".toCharArray();

    static StringBuilder hex(StringBuilder b, long value, int width) {
        for (int shift = ((width + 3) / 4 - 1) * 4; shift >= 0; shift -= 4) {
            b.append(DIGITS[(int) (value >>> shift) & 0xF]);
        }
        return b;
    }
}
