package convcert.suite.runner;

import convcert.vectors.VectorFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The suite's side of one packed batch of float -> half (PackedRunner, issue 26), per
 * element, in the pieces PackedRunner computes: inputs narrowed into a kept copy and copied into a mapped
 * file, the expected values packed, the outputs poisoned with their complements, the device's answer
 * stood in for by a copy, the packed comparison. Against two
 * limits: a plain memcpy of the bytes that must cross (4 in, 2 out) and the pipe transport's packing
 * of long[] into bytes and back (VectorFiles.pack and unpack, what a batch cost before). In the
 * package of Packing, which it measures. Run: java -jar bench/target/benchmarks.jar TransportBenchmark
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class TransportBenchmark {

    static final int N = PackedRunner.CHUNK;
    static final int PIECE = PackedRunner.PIECE;

    long[] inputs = new long[N];
    long[] expected = new long[N];
    long[] actual = new long[N];
    long[] pieceIn = new long[PIECE];
    long[] pieceExpected = new long[PIECE];
    int[] packedInputs = new int[N];
    short[] packedOutputs = new short[N];
    Packing in = new Packing(4, N);
    Packing packedExpected = new Packing(2, N);
    Arena arena;
    MemorySegment slotIn;
    MemorySegment slotOut;
    Path file;

    /** A batch's secret rotation and poison, as PackedRunner draws them (here fixed). */
    private static final int ROTATION = N / 3;
    private static final long POISON = 0x3C01;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        for (int i = 0; i < N; i++) {
            inputs[i] = 0x3F800000L + i;
            expected[i] = Float.floatToFloat16(Float.intBitsToFloat((int) inputs[i])) & 0xFFFFL;
            packedOutputs[i] = (short) expected[i];
        }
        Path shm = Path.of("/dev/shm");
        file = Files.createTempFile(Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
                "convcert-bench-", ".mem");
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, 16L * N, arena);
            slotIn = mapped.asSlice(0, 8L * N);
            slotOut = mapped.asSlice(8L * N, 8L * N);
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long packedBatch() {
        for (int at = 0; at < N; at += PIECE) { // as PackedRunner: pieces the reference would compute, packed and kept
            System.arraycopy(inputs, at, pieceIn, 0, PIECE);
            System.arraycopy(expected, at, pieceExpected, 0, PIECE);
            in.set(pieceIn, PIECE, at);
            packedExpected.set(pieceExpected, PIECE, at);
        }
        in.copyToRotated(slotIn, N, ROTATION);
        packedExpected.fill(slotOut, N, POISON); // the poison
        packedExpected.copyToRotated(slotOut, N, ROTATION); // the device's answer
        long[] doubtful = {0};
        if (packedExpected.sameRotated(slotOut, N, ROTATION)) {
            packedExpected.indexesOf(N, POISON, k -> doubtful[0]++); // outputs that may have been left alone
        }
        return doubtful[0];
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public short memcpyLimit() {
        MemorySegment.copy(packedInputs, 0, slotIn, ValueLayout.JAVA_INT_UNALIGNED, 0, N);
        MemorySegment.copy(slotOut, ValueLayout.JAVA_SHORT_UNALIGNED, 0, packedOutputs, 0, N);
        return packedOutputs[N - 1];
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public boolean pipePacking() {
        byte[] payload = VectorFiles.pack(inputs, N, 32);
        byte[] answer = VectorFiles.pack(expected, N, 16);
        VectorFiles.unpack(answer, 16, actual, N);
        return payload.length > 0 && java.util.Arrays.equals(expected, actual);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        arena.close();
        Files.deleteIfExists(file);
    }
}
