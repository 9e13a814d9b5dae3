package convcert.bench;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One pass over all 2^32 float inputs, one thread, in chunks as exhaustive certification uses them:
 * the JDK's Float.floatToFloat16 scalar loop (the anchor of issue 15) and the reference for
 * float->half in a mode, fed as batches (apply) and as consecutive inputs (applyConsecutive). Seconds per pass; docs/exhaustive-ratio.sh turns them into ratios.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 2)
@Fork(1)
@State(Scope.Thread)
public class ExhaustiveBenchmark {

    static final int CHUNK = 1 << 20;

    @Param({"rn", "rz"})
    public String mode;

    long[] in = new long[CHUNK];
    long[] out = new long[CHUNK];
    Converter converter;

    @Setup
    public void setup() {
        Reference reference = Reference.of(SpecTables.load(Path.of(System.getProperty("convcert.home", "."),
                "spec-tables", "ascend-c")));
        converter = reference.converter(reference.resolve("float", "half", mode, "nosat", reference.ctrl("60=0")));
    }

    @Benchmark
    public long jdkAnchor() {
        long sum = 0;
        for (long x = 0; x < 1L << 32; x++) {
            sum += Float.floatToFloat16(Float.intBitsToFloat((int) x));
        }
        return sum;
    }

    @Benchmark
    public long reference() {
        long sum = 0;
        for (long base = 0; base < 1L << 32; base += CHUNK) {
            for (int i = 0; i < CHUNK; i++) {
                in[i] = base + i;
            }
            converter.apply(in, 0, out, 0, CHUNK);
            sum += out[CHUNK - 1];
        }
        return sum;
    }

    /** As certify's exhaustive runs compute expected values: through Converter.applyConsecutive. */
    @Benchmark
    public long referenceConsecutive() {
        long sum = 0;
        for (long base = 0; base < 1L << 32; base += CHUNK) {
            converter.applyConsecutive(base, in, out, 0, CHUNK);
            sum += out[CHUNK - 1];
        }
        return sum;
    }
}
