package convcert.bench;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import convcert.suite.model.CaseResult;
import convcert.suite.model.Status;
import convcert.suite.runner.AdapterInstance;
import convcert.suite.runner.Batches;
import convcert.suite.runner.Comparison;
import convcert.suite.runner.ValueRunner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Vectors per second through each kind of adapter: one float->half rn nosat case of 2^20 inputs run by
 * ValueRunner (batches of 2^16 handed to the adapter on its worker thread, results compared with the
 * expected values). The process and native adapters run suite/devices/example-c/dut.c, built here
 * with gcc. Run: java -Dconvcert.home=. -jar bench/target/benchmarks.jar AdapterBenchmark
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class AdapterBenchmark {

    static final int N = 1 << 20;

    @Param({"reference", "jdk", "process", "process-shared", "native", "replay"})
    public String adapter;

    long[] inputs = new long[N];
    long[] expected = new long[N];
    CaseKey key;
    Converter reference;
    AdapterInstance instance;
    ValueRunner runner;
    ConverterAdapter implementation;
    Path temp;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        Path home = Path.of(System.getProperty("convcert.home", "."));
        Reference ref = Reference.of(SpecTables.load(home.resolve("spec-tables/ascend-c")));
        reference = ref.converter(ref.resolve("float", "half", "rn", "nosat", ref.ctrl("60=0")));
        key = new CaseKey("ascend-c", "float", "half", "rn", "nosat", "nosat", ref.ctrl("60=0").bits());
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < N; i++) {
            inputs[i] = random.nextLong() & 0xFFFFFFFFL;
        }
        reference.apply(inputs, 0, expected, 0, N);
        temp = Files.createTempDirectory("convcert-bench");
        String spec = switch (adapter) {
            case "process" -> "process:cmd=" + gcc(home, temp, false);
            case "process-shared" -> "process:cmd=" + gcc(home, temp, false) + " --shared";
            case "native" -> "native:lib=" + gcc(home, temp, true);
            case "replay" -> "replay:dir=" + record(temp);
            default -> adapter;
        };
        implementation = Adapters.create(spec, new SuiteContext(home, home.resolve("vectors"), 60_000, ref));
        instance = new AdapterInstance(implementation, implementation.capabilities(), 60_000);
        runner = new ValueRunner(Comparison.of(ref), 10, false, ref.tables().hasFlags());
    }

    private static Path gcc(Path home, Path dir, boolean library) throws IOException, InterruptedException {
        Path out = dir.resolve(library ? "libdut.so" : "dut");
        ProcessBuilder pb = library
                ? new ProcessBuilder("gcc", "-O2", "-shared", "-fPIC", "-DCONVCERT_LIBRARY", "-I",
                        home.resolve("suite/native").toString(), "-o", out.toString(),
                        home.resolve("suite/devices/example-c/dut.c").toString(), "-lm")
                : new ProcessBuilder("gcc", "-O2", "-o", out.toString(),
                        home.resolve("suite/devices/example-c/dut.c").toString(), "-lm");
        if (pb.inheritIO().start().waitFor() != 0) {
            throw new IOException("gcc failed");
        }
        return out;
    }

    private Path record(Path dir) throws IOException {
        Path pair = dir.resolve("recording/ascend-c/float-half");
        Files.createDirectories(pair);
        ByteBuffer in = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out = ByteBuffer.allocate(2 * N).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < N; i++) {
            in.putInt((int) inputs[i]);
            out.putShort((short) expected[i]);
        }
        Files.write(pair.resolve("rn-nosat.in.bin"), in.array());
        Files.write(pair.resolve("rn-nosat.out.bin"), out.array());
        return dir.resolve("recording");
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public CaseResult certifyOneCase() {
        CaseResult r = runner.run(instance, key, reference, Batches.of(inputs, expected), null).result();
        if (r.status() != Status.PASS) {
            throw new IllegalStateException(r.toString());
        }
        return r;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        instance.close();
        implementation.close();
    }
}
