package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Kernel equals the generic path it stands in for: on a stratified sample (every
 * exponent field, both signs, the mantissas next to every rounding boundary and random ones) for every
 * case of every profile it covers, and on all 2^32 float inputs for float -> half and float -> hifloat8 in
 * every mode (CI's tier sweeps hifloat8 rh where it rounds, the positive floats from 2^-31 to 2^32, the extended tier
 * the rest).
 */
class KernelTest {

    /** The cases of the repository's profiles the kernel takes, each state's primary variant. */
    static List<Converter> covered() {
        List<Converter> all = new ArrayList<>();
        for (String profile : List.of("ascend-c", "cuda", "opencl", "ocp-mx")) {
            all.addAll(covered(TestProfile.reference(profile)));
        }
        return all;
    }

    static List<Converter> covered(Reference r) {
        List<Converter> all = new ArrayList<>();
        for (Conversion c : r.tables().conversions()) {
            for (Rounding mode : c.modes()) {
                for (Case state : r.saturationStates(c, mode)) {
                    Converter converter = r.converter(state);
                    if (converter.hasKernel()) {
                        all.add(converter);
                    }
                }
            }
        }
        return all;
    }

    /** A first mismatch between the batch path (kernel) and the generic one, or null. */
    static String compare(Converter c, long[] in) {
        long[] fast = new long[in.length];
        long[] generic = new long[in.length];
        c.apply(in, 0, fast, 0, in.length);
        c.applyGeneric(in, 0, generic, 0, in.length);
        return firstDifference(c, "kernel", in, fast, generic);
    }

    private static String firstDifference(Converter c, String path, long[] in, long[] fast, long[] generic) {
        for (int i = 0; i < in.length; i++) {
            if (fast[i] != generic[i]) {
                return c.spec().describe() + ": input 0x" + Long.toHexString(in[i]) + ": " + path + " 0x"
                        + Long.toHexString(fast[i]) + ", generic 0x" + Long.toHexString(generic[i]);
            }
        }
        return null;
    }

    /**
     * A first mismatch between the generic path and both batch paths over the consecutive inputs
     * first, first + 1, ... (in.length of them, written to in), or null.
     */
    static String compareConsecutive(Converter c, long first, long[] in) {
        long[] consecutive = new long[in.length];
        c.applyConsecutive(first, in, consecutive, 0, in.length);
        long[] batch = new long[in.length];
        c.apply(in, 0, batch, 0, in.length);
        long[] generic = new long[in.length];
        c.applyGeneric(in, 0, generic, 0, in.length);
        String mismatch = firstDifference(c, "kernel", in, batch, generic);
        return mismatch != null ? mismatch : firstDifference(c, "consecutive kernel", in, consecutive, generic);
    }

    /** Integers: every bit position alone, all ones below it, one either side of each power of two, random lengths. */
    static long[] integerSample(int width) {
        SplittableRandom random = new SplittableRandom(19);
        List<Long> points = new ArrayList<>();
        long mask = width == 64 ? -1L : (1L << width) - 1;
        for (int k = 0; k < width; k++) {
            for (long v : new long[] {1L << k, (1L << k) - 1, (1L << k) + 1, (2L << k) - 1, -(1L << k), -(1L << k) - 1}) {
                points.add(v & mask);
            }
            for (int r = 0; r < 64; r++) {
                points.add(random.nextLong() >>> (63 - k) & mask);
            }
        }
        return points.stream().mapToLong(Long::longValue).toArray();
    }

    static long[] sample(convcert.spec.Format f) {
        return f.isInteger() ? integerSample(f.width()) : sample(f.width(), f.exponentBits(), f.mantissaBits());
    }

    static long[] sample(int width, int exponentBits, int mantissaBits) {
        SplittableRandom random = new SplittableRandom(17);
        List<Long> points = new ArrayList<>();
        long exponents = 1L << exponentBits;
        for (long e = 0; e < exponents; e++) {
            for (long sign : new long[] {0, 1L << (width - 1)}) {
                long base = sign | e << mantissaBits;
                for (int k = 0; k < mantissaBits; k++) { // one bit, and all bits below it, for each position
                    points.add(base | 1L << k);
                    points.add(base | ((1L << (k + 1)) - 1));
                    points.add(base | ((1L << mantissaBits) - 1) ^ ((1L << k) - 1));
                }
                points.add(base);
                for (int r = 0; r < 24; r++) {
                    points.add(base | random.nextLong(1L << mantissaBits));
                }
            }
        }
        return points.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void theKernelTakesTheNarrowingCasesOfEveryProfile() {
        assertTrue(covered().size() > 60, "cases covered: " + covered().size());
    }

    @TestFactory
    Stream<DynamicTest> everyCoveredCaseOnAStratifiedSample() {
        return covered().stream().map(c -> DynamicTest.dynamicTest(c.spec().describe(), () -> {
            assertEquals(null, compare(c, sample(c.spec().conversion().from())));
        }));
    }

    /**
     * Runs of consecutive inputs across every exponent field's edges (where a kernel's runs start and
     * end), from starts that are not aligned, as exhaustive runs feed them; and short runs around
     * every power of two of the mantissa from either end of each field (where kept values change,
     * the largest finite value included).
     */
    @TestFactory
    Stream<DynamicTest> everyCoveredCaseOnConsecutiveRunsAcrossEveryField() {
        return covered().stream().map(c -> DynamicTest.dynamicTest(c.spec().describe(), () -> {
            convcert.spec.Format from = c.spec().conversion().from();
            if (from.isInteger() || from.width() > 32) {
                return; // exhaustive runs are of 32-bit sources; integer kernels take consecutive inputs as any
            }
            int mantissa = from.mantissaBits();
            long fields = 1L << (from.width() - mantissa); // sign and exponent field
            long last = (1L << from.width()) - 1;
            long[] across = new long[96];
            long[] around = new long[16];
            for (long f = 0; f < fields; f++) {
                long edge = f << mantissa;
                assertEquals(null, compareConsecutive(c, Math.max(0, Math.min(edge - 37, last + 1 - across.length)), across));
                for (int k = 0; k <= mantissa; k++) {
                    for (long first : new long[] {edge + (1L << k) - 8, edge + (1L << mantissa) - (1L << k) - 8}) {
                        assertEquals(null, compareConsecutive(c, Math.max(0, Math.min(first, last + 1 - around.length)), around));
                    }
                }
            }
        }));
    }

    /** The other readings of overflow, NaN, hybrid rounding, negative and zero scales: the kernels either agree or are not used. */
    @TestFactory
    Stream<DynamicTest> underOtherDecisions() {
        record Reading(String profile, java.util.Map<String, String> decisions) { }
        return Stream.of(new Reading("ascend-c", java.util.Map.of("directed-overflow", "infinity")),
                new Reading("ascend-c", java.util.Map.of("odd-overflow", "infinity")),
                new Reading("ascend-c", java.util.Map.of("nan-encoding", "canonical")),
                new Reading("ascend-c", java.util.Map.of("hr-exact", "keep", "hr-band", "ta-threshold")),
                new Reading("ocp-mx", java.util.Map.of("unsigned-negative", "nan", "exponent-zero", "nan")),
                new Reading("ocp-mx", java.util.Map.of("exponent-ties", "even-code")),
                new Reading("ocp-mx", java.util.Map.of("finite-nan", "zero", "directed-overflow", "infinity")))
                .map(reading -> DynamicTest.dynamicTest(reading.toString(), () -> {
                    Reference base = TestProfile.reference(reading.profile());
                    Reference r = new Reference(base.tables(), Semantics.of(base.tables(), reading.decisions()));
                    for (Converter c : covered(r)) {
                        assertEquals(null, compare(c, sample(c.spec().conversion().from())));
                    }
                }));
    }

    /**
     * float -> hifloat8 in rh: its threshold reads the input's low 14 bits, so only all inputs show it
     * all: every positive float where HiFloat8 rounds here, every other float in the extended tier (the sign
     * is one bit the samples above take at every boundary, and beyond the range every result is the same). The other modes turn at the boundaries that
     * the stratified and consecutive-run samples above take in every exponent field; rn has its own fast
     * path (FastPathTest, all 2^32 inputs).
     */
    @Tag("slow") // 2^29 inputs through the generic path and both kernel paths: about 30 s on 2 cores
    @TestFactory
    Stream<DynamicTest> thePositiveFloatsWhereHifloat8Rounds() {
        return sweeps(m -> m == Rounding.RH, HIFLOAT8_BINADES, 32);
    }

    @Tag("extended")
    @TestFactory
    Stream<DynamicTest> everyOtherFloatInput() {
        return Stream.of(sweeps(m -> m == Rounding.RH, 0, HIFLOAT8_BINADES), sweeps(m -> m == Rounding.RH,
                HIFLOAT8_BINADES + 32, 128 - HIFLOAT8_BINADES - 32), sweeps(m -> m == Rounding.RH, 128, 128)).flatMap(t -> t);
    }

    /**
     * The chunks of 2^24 inputs (two exponent fields each) from which CI sweeps 32: exponent fields 96 to 159, 2^-31 to
     * 2^32, past HiFloat8's range (2^-22 to 2^15) on both sides; beyond them every result is a zero or the overflow,
     * which the samples above take at their boundaries.
     */
    private static final int HIFLOAT8_BINADES = 48;

    /**
     * float -> half in rd (a sign-dependent direction; ru is its mirror in the kernel's rounding table)
     * and ro (round to odd keeps its sticky bit as rd's path does): the samples cover their boundaries,
     * so CI's minutes go to rh and these run in the extended tier.
     */
    @Tag("extended")
    @TestFactory
    Stream<DynamicTest> all2pow32FloatInputsInDirectedAndOddRounding() {
        return java.util.stream.Stream.concat(sweeps(m -> m == Rounding.RD || m == Rounding.RO, 0, 128),
                sweeps(m -> m == Rounding.RD || m == Rounding.RO, 128, 128));
    }

    /** The inputs of chunks [from, from + count) of 2^24 each: 128 are half of all 2^32 floats, one sign. */
    private static Stream<DynamicTest> sweeps(java.util.function.Predicate<Rounding> modes, int from, int count) {
        Reference r = TestProfile.reference();
        return Stream.of("half", "hifloat8").flatMap(to -> {
            Conversion c = r.conversion("float", to);
            return c.modes().stream().filter(m -> (to.equals("half") ? m == Rounding.RD || m == Rounding.RO : m == Rounding.RH)
                    && modes.test(m))
                    .sorted()
                    .map(mode -> DynamicTest.dynamicTest("float->" + to + " " + mode.suffix() + " chunks " + from + ".."
                            + (from + count - 1), () -> {
                        Converter converter = r.converter(r.saturationStates(c, mode).getFirst());
                        assertTrue(converter.hasKernel());
                        AtomicReference<String> first = new AtomicReference<>();
                        AtomicInteger done = new AtomicInteger();
                        long start = System.nanoTime();
                        IntStream.range(from, from + count).parallel().forEach(chunk -> {
                            long[] in = new long[1 << 24];
                            String mismatch = compareConsecutive(converter, (long) chunk << 24, in);
                            if (mismatch != null) {
                                first.compareAndSet(null, mismatch);
                            }
                            if (done.incrementAndGet() % 32 == 0) { // a CI log is never silent for minutes
                                System.out.printf("KernelTest float->%s %s: %d%% of %d chunks, %.0f s%n", to,
                                        mode.suffix(), done.get() * 100 / count, count, (System.nanoTime() - start) / 1e9);
                            }
                        });
                        assertEquals(null, first.get());
                    }));
        });
    }
}
