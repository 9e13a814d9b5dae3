package convcert.bench;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Values per second per thread through the reference's batch API, with the JDK's
 * Float.floatToFloat16 as the yardstick. Inputs: a fixed seeded mix of float bit patterns whose
 * magnitudes span the destination's range (or uniform integers), so every branch is exercised.
 * Run: java -Dconvcert.home=. -jar bench/target/benchmarks.jar (results are ops/us = M values/s).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ConversionBenchmark {

    static final int N = 4096;

    @Param({"float:half:rn", "float:bfloat16:rn", "float:fp8_e4m3fn:rn", "float:hifloat8:rna", "float:int32:rz",
            "int32:float:rn"})
    public String conversion;

    long[] in = new long[N];
    long[] out = new long[N];
    float[] floats = new float[N];
    short[] halves = new short[N];
    Converter converter;

    @Setup
    public void setup() {
        // [PROFILE/]FROM:TO:MODE, the profile ascend-c unless named (ocp-mx/float:fp4_e2m1:rn)
        String profile = conversion.contains("/") ? conversion.substring(0, conversion.indexOf('/')) : "ascend-c";
        String[] parts = conversion.substring(conversion.indexOf('/') + 1).split(":");
        SpecTables tables = SpecTables.load(Path.of(System.getProperty("convcert.home", "."), "spec-tables", profile));
        Reference reference = Reference.of(tables);
        var ctrl = reference.ctrl(profile.equals("ascend-c") ? "60=0" : ""); // the other profiles have no CTRL bits
        converter = reference.converter(reference.resolve(parts[0], parts[1], parts[2], null, ctrl));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < N; i++) {
            long bits;
            if (parts[0].equals("float")) {
                // sign, exponent uniform over [2^-30, 2^40), random mantissa
                bits = (random.nextLong(2) << 31) | ((long) (127 - 30 + random.nextInt(70)) << 23) | random.nextInt(1 << 23);
            } else {
                bits = random.nextLong() & 0xFFFFFFFFL;
            }
            in[i] = bits;
            floats[i] = Float.intBitsToFloat((int) bits);
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long[] reference() {
        converter.apply(in, 0, out, 0, N);
        return out;
    }

    /** The JDK's float -> half (an intrinsic on x86 with F16C), for comparison with float:half:rn. */
    @Benchmark
    @OperationsPerInvocation(N)
    public short[] jdkFloatToFloat16() {
        for (int i = 0; i < N; i++) {
            halves[i] = Float.floatToFloat16(floats[i]);
        }
        return halves;
    }
}
