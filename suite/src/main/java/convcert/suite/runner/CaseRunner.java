package convcert.suite.runner;

import convcert.opencl.MemoryVector;
import convcert.reference.BlockConverter;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Semantics;
import convcert.reference.Values;
import convcert.spi.AdapterException;
import convcert.spi.BlockOperations;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.MemoryCase;
import convcert.spi.MemoryOperations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs cases through an adapter: batches go to the adapter on a worker thread with a timeout; results
 * are compared with the expected values (NaN by the nan-comparison decision). A failing or hanging
 * adapter ends the case with ADAPTER_ERROR and is asked to recover; the next case goes on.
 */
public final class CaseRunner implements AutoCloseable {

    /** Source of one case's batches: inputs and the expected results. */
    public interface Batches {
        /** Fills in[] and expected[] with the next batch; returns its size, 0 at the end. */
        int next(long[] in, long[] expected);

        /** Whether the expected values are the reference's computation now (not stored golden values). */
        default boolean computed() {
            return false;
        }
    }

    public interface ProgressListener {
        void batchDone(long vectors);
    }

    /** Values per adapter call (suite/ADAPTERS.md promises no more). */
    public static final int BATCH = 1 << 16;

    /** Values per chunk of expected values: large, so that computing them in parallel pays. */
    static final int CHUNK = 1 << 20;

    private final ConverterAdapter adapter;
    private final List<Capability> capabilities;
    private final long timeoutMillis;
    private final int firstMismatches;
    private ExecutorService worker = newWorker();
    /** The last case's wrong answers (input -> actual), up to DIAGNOSED: what a diagnosis explains. */
    private final Map<Long, Long> lastMismatches = new LinkedHashMap<>();
    static final int DIAGNOSED = 1 << 16;

    /**
     * The adapter is this run's own reference: where the expected values are computed now (exhaustive
     * runs, recomputed vectors) its outputs are those values, computed once. Stored golden values are
     * still checked against the adapter's computation.
     */
    private final boolean adapterIsReference;

    /**
     * capabilities: the adapter's, with type aliases resolved to the profile's names; adapterIsReference:
     * the adapter computes exactly the expected values (the reference adapter on the run's reference).
     */
    public CaseRunner(ConverterAdapter adapter, List<Capability> capabilities, long timeoutMillis, int firstMismatches,
                      boolean adapterIsReference) {
        this.adapter = adapter;
        this.adapterIsReference = adapterIsReference;
        this.capabilities = capabilities;
        this.timeoutMillis = timeoutMillis;
        this.firstMismatches = firstMismatches;
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "convcert-adapter");
            t.setDaemon(true);
            return t;
        });
    }

    /** Whether the adapter is the run's own reference (its cases computed once, see the constructor). */
    boolean adapterIsReference() {
        return adapterIsReference;
    }

    public boolean applies(CaseKey key) {
        return capabilities.stream().anyMatch(c -> c.matches(key));
    }

    /** Runs one case; reference is the converter that defines the expected values (for explanations). */
    public CaseResult run(CaseKey key, Converter reference, Batches batches, ProgressListener progress) {
        long start = System.nanoTime();
        if (!applies(key)) {
            return CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter");
        }
        FormatCodec source = reference.source();
        FormatCodec destination = reference.destination();
        boolean anyNaN = reference.semantics().nanComparison() == Semantics.NanComparison.ANY;
        boolean integral = reference.spec().conversion().sameType();
        long[] in = new long[CHUNK];
        long[] expected = new long[CHUNK];
        long[] actual = new long[CHUNK];
        long[] adapterIn = new long[BATCH];
        long[] adapterOut = new long[BATCH];
        lastMismatches.clear();
        long vectors = 0;
        long mismatches = 0;
        List<Mismatch> first = new ArrayList<>();
        Map<String, Long> kinds = new LinkedHashMap<>();
        int n;
        boolean self = adapterIsReference && batches.computed();
        while ((n = batches.next(in, expected)) > 0) { // chunks of CHUNK; the adapter gets batches of BATCH
            if (self) { // the adapter's outputs are these expected values: nothing to compute or compare twice
                vectors += n;
                if (progress != null) {
                    progress.batchDone(n);
                }
                continue;
            }
            for (int from = 0; from < n; from += BATCH) {
                int size = Math.min(BATCH, n - from);
                try {
                    System.arraycopy(in, from, adapterIn, 0, size);
                    convert(key, adapterIn, adapterOut, size);
                    System.arraycopy(adapterOut, 0, actual, from, size);
                } catch (AdapterException e) {
                    recover();
                    return new CaseResult(key, Status.ADAPTER_ERROR, vectors, mismatches, render(first, source, destination),
                            List.of(), kinds, e.getMessage() + " (after " + vectors + " vectors)", null, millis(start));
                }
                // bits beyond the format's width are a wrong answer, not noise to mask
                if (!java.util.Arrays.equals(expected, from, from + size, actual, from, from + size)) {
                    for (int i = from; i < from + size; i++) {
                        long want = expected[i];
                        long got = actual[i];
                        if (got != want && !(anyNaN && isNaN(destination, got) && isNaN(destination, want))) {
                            mismatches++;
                            if (lastMismatches.size() < DIAGNOSED) {
                                lastMismatches.put(in[i], got);
                            }
                            MismatchKind kind = MismatchKind.classify(source, in[i], destination, want, got, integral);
                            kinds.merge(kind.label(), 1L, Long::sum);
                            if (first.size() < firstMismatches) {
                                first.add(new Mismatch(in[i], want, got, kind));
                            }
                        }
                    }
                }
                vectors += size;
                if (progress != null) {
                    progress.batchDone(size);
                }
            }
        }
        List<String> rules = first.isEmpty() ? List.of() : reference.explain(first.getFirst().input()).rules();
        if (vectors == 0) {
            return CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify");
        }
        return new CaseResult(key, mismatches == 0 ? Status.PASS : Status.FAIL, vectors, mismatches,
                render(first, source, destination), rules, kinds, null, null, millis(start));
    }

    /** Blocks per adapter call. */
    static final int BLOCK_BATCH = 2048;

    /**
     * Runs one case of a block-scaled format: vectors are blocks, a block with any wrong value is a
     * mismatch, each wrong value counts in kinds. Elements under a NaN scale are not judged (they
     * mean nothing); expected holds the reference's outputs for inputs.
     */
    public CaseResult runBlocks(CaseKey key, BlockConverter reference, long[] inputs, long[] expected, int blocks,
                                boolean anyNaN) {
        long start = System.nanoTime();
        if (!applies(key)) {
            return CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter");
        }
        if (!(adapter instanceof BlockOperations operations)) {
            return CaseResult.without(key, Status.ERROR, "the adapter lists " + key.name()
                    + " among its capabilities but does not implement BlockOperations");
        }
        int in = reference.inputsPerBlock();
        int out = reference.outputsPerBlock();
        long mismatches = 0;
        List<String> first = new ArrayList<>();
        Map<String, Long> kinds = new LinkedHashMap<>();
        List<String> rules = List.of();
        for (int done = 0; done < blocks; ) {
            int n = Math.min(BLOCK_BATCH, blocks - done);
            long[] batch = java.util.Arrays.copyOfRange(inputs, done * in, (done + n) * in);
            long[] actual = new long[n * out];
            try {
                timed(() -> operations.convertBlocks(key, batch, actual, n), () -> n + " blocks");
            } catch (AdapterException e) {
                recover();
                return new CaseResult(key, Status.ADAPTER_ERROR, done, mismatches, first, rules, kinds,
                        e.getMessage() + " (after " + done + " blocks)", null, millis(start));
            }
            for (int b = 0; b < n; b++) {
                int e = (done + b) * out;
                List<String> wrong = new ArrayList<>();
                for (int i = 0; i < out; i++) {
                    long want = expected[e + i];
                    long got = actual[b * out + i];
                    FormatCodec codec = reference.outputCodec(i);
                    if (got == want || !reference.compared(expected, e, i)
                            || (anyNaN && isNaN(codec, got) && isNaN(codec, want))) {
                        continue;
                    }
                    MismatchKind kind = MismatchKind.classify(codec, 0, codec, want, got, false);
                    kinds.merge(kind.label(), 1L, Long::sum);
                    wrong.add(BlockText.value(reference, i, codec, want, got, kind));
                }
                if (!wrong.isEmpty()) {
                    mismatches++;
                    if (first.size() < firstMismatches) {
                        first.add("block " + (done + b) + ": " + String.join("; ", wrong.subList(0, Math.min(4, wrong.size())))
                                + (wrong.size() > 4 ? "; and " + (wrong.size() - 4) + " more" : "")
                                + "; inputs " + BlockText.inputs(reference, batch, b * in));
                    }
                    if (rules.isEmpty()) {
                        rules = reference.explain(batch, b * in);
                    }
                }
            }
            done += n;
        }
        if (blocks == 0) {
            return CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify");
        }
        return new CaseResult(key, mismatches == 0 ? Status.PASS : Status.FAIL, blocks, mismatches, first, rules, kinds,
                null, null, millis(start));
    }

    /** Message parts for block mismatches: values in hex and decoded, as everywhere. */
    static final class BlockText {
        private BlockText() {
        }

        static String value(BlockConverter c, int i, FormatCodec codec, long want, long got, MismatchKind kind) {
            String what = c.toBlock() ? (i == 0 ? "scale" : "element " + (i - 1)) : "value " + i;
            return what + ": expected " + Values.describe(codec, want) + ", actual " + Values.describe(codec, got)
                    + " [" + kind.label() + "]";
        }

        /** The block's inputs in hex. */
        static String inputs(BlockConverter c, long[] in, int offset) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < c.inputsPerBlock(); i++) {
                b.append(i == 0 ? "" : " ").append(c.inputFormat(i).hex(in[offset + i]));
            }
            return b.append(']').toString();
        }
    }

    /** The wrong answers of the last case run (input -> actual output), at most DIAGNOSED of them. */
    public Map<Long, Long> lastMismatches() {
        return Map.copyOf(lastMismatches);
    }

    /** A call to the adapter on the worker thread, bounded by the timeout. */
    private interface AdapterCall {
        void call() throws AdapterException;
    }

    private void convert(CaseKey key, long[] in, long[] out, int n) throws AdapterException {
        timed(() -> adapter.convert(key, in, out, n), () -> "batch of " + n);
    }

    /** what: the call in words, built only for a timeout's message (an exhaustive run makes 65,536 calls). */
    private void timed(AdapterCall work, java.util.function.Supplier<String> what) throws AdapterException {
        Future<?> call = worker.submit(() -> {
            work.call();
            return null;
        });
        try {
            call.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            worker.shutdownNow();
            worker = newWorker(); // the stuck thread is abandoned; the adapter recovers below
            throw new AdapterException("no answer within " + timeoutMillis + " ms (" + what.get() + ")");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof AdapterException a ? a
                    : new AdapterException("adapter threw " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted");
        }
    }

    /**
     * Runs one OpenCL memory case. Vectors with an implementation-defined result are run and recorded,
     * not judged; negative vectors (errors of the reference) only go to adapters that check alignment,
     * which must refuse them.
     */
    public CaseResult runMemory(CaseKey key, MemoryCase c, List<MemoryVector> all,
                                boolean anyNaN) {
        long start = System.nanoTime();
        if (!(adapter instanceof MemoryOperations memory) || !memory.memoryCapabilities().contains(c.name())) {
            return CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter");
        }
        // Misaligned and size-mismatch vectors go only to adapters that check; a disabled extension is a
        // compile-time error of the kernel source, not a vector any adapter can refuse: reference only.
        List<MemoryVector> vectors = all.stream()
                .filter(v -> v.outcome() != MemoryVector.Outcome.EXTENSION_DISABLED)
                .filter(v -> !v.outcome().negative() || adapter.checksAlignment()).toList();
        int n = vectors.size();
        long[] pointers = new long[n];
        long[] offsets = new long[n];
        byte[][] memories = new byte[n][];
        byte[][] data = new byte[n][];
        byte[][] results = new byte[n][];
        for (int i = 0; i < n; i++) {
            MemoryVector v = vectors.get(i);
            pointers[i] = v.pointer();
            offsets[i] = v.offset();
            memories[i] = v.memory();
            data[i] = v.data();
        }
        try {
            timed(() -> memory.run(c, pointers, offsets, memories, data, results, n), () -> n + " vectors of " + c.name());
        } catch (AdapterException e) {
            recover();
            return new CaseResult(key, Status.ADAPTER_ERROR, 0, 0, List.of(), List.of(), Map.of(), e.getMessage(), null,
                    millis(start));
        }
        long mismatches = 0;
        List<String> first = new ArrayList<>();
        List<String> recorded = new ArrayList<>();
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            MemoryVector v = vectors.get(i);
            byte[] got = results[i];
            String where = "p=" + v.pointer() + " offset=" + v.offset()
                    + (v.data() == null ? "" : " data=" + MemoryVector.hex(v.data()));
            if (v.outcome() == MemoryVector.Outcome.IMPLEMENTATION_DEFINED) {
                if (recorded.size() < 3) {
                    recorded.add(where + " -> " + MemoryVector.hex(got));
                }
                continue;
            }
            boolean ok = v.outcome().negative() ? got == null
                    : got != null && got.length >= v.comparedBytes() && sameBytes(c, v.expected(), got, v.comparedBytes(), anyNaN);
            if (!ok) {
                mismatches++;
                String kind = v.outcome().negative() ? "accepted a " + v.outcome().label() + " vector" : "wrong bytes";
                kinds.merge(kind, 1L, Long::sum);
                if (first.size() < firstMismatches) {
                    first.add(where + ": expected " + (v.outcome().negative() ? v.outcome().label()
                            : MemoryVector.hex(java.util.Arrays.copyOf(v.expected(), v.comparedBytes())))
                            + ", actual " + (got == null ? "refused" : MemoryVector.hex(got)));
                }
            }
        }
        boolean onlyRecorded = vectors.stream().allMatch(v -> v.outcome() == MemoryVector.Outcome.IMPLEMENTATION_DEFINED);
        String message = recorded.isEmpty() ? null : "implementation-defined, recorded not judged: " + String.join("; ", recorded);
        Status status = onlyRecorded ? Status.NOT_APPLICABLE : mismatches == 0 ? Status.PASS : Status.FAIL;
        return new CaseResult(key, status, n, mismatches, first, List.of("opencl " + c.name() + " (spec-tables/opencl)"),
                kinds, message, null, millis(start));
    }

    /**
     * Byte comparison; for the _half functions with nan-comparison=any, a NaN element equals any NaN
     * (loads give floats, stores write halves), as conversions compare.
     */
    private static boolean sameBytes(MemoryCase c, byte[] expected, byte[] actual, int n, boolean anyNaN) {
        if (java.util.Arrays.equals(expected, 0, n, actual, 0, n)) {
            return true;
        }
        if (!anyNaN || !c.function().contains("_half")) {
            return false;
        }
        int width = c.isStore() ? 2 : 4;
        for (int i = 0; i + width <= n; i += width) {
            long a = 0;
            long b = 0;
            for (int k = width - 1; k >= 0; k--) {
                a = a << 8 | (expected[i + k] & 0xFF);
                b = b << 8 | (actual[i + k] & 0xFF);
            }
            boolean bothNaN = width == 2 ? isHalfNaN(a) && isHalfNaN(b) : isFloatNaN(a) && isFloatNaN(b);
            if (a != b && !bothNaN) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHalfNaN(long h) {
        return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
    }

    private static boolean isFloatNaN(long f) {
        return (f & 0x7F800000L) == 0x7F800000L && (f & 0x7FFFFF) != 0;
    }

    private void recover() {
        try {
            adapter.recover();
        } catch (AdapterException e) {
            // The next case reports it again if the adapter stays broken.
        }
    }

    private static boolean isNaN(FormatCodec codec, long bits) {
        return !codec.isInteger() && (bits & ~codec.format().mask()) == 0 && codec.decode(bits).kind() == Decoded.Kind.NAN;
    }

    private static List<String> render(List<Mismatch> mismatches, FormatCodec source, FormatCodec destination) {
        return mismatches.stream().map(m -> MismatchText.of(m, source, destination)).toList();
    }

    private static long millis(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }

    /** Batches over stored vectors. */
    public static Batches of(long[] inputs, long[] expected) {
        int[] position = {0};
        return (in, exp) -> {
            int n = Math.min(in.length, inputs.length - position[0]);
            System.arraycopy(inputs, position[0], in, 0, n);
            System.arraycopy(expected, position[0], exp, 0, n);
            position[0] += n;
            return n;
        };
    }

    /** Batches over stored inputs whose expected values the reference computes now. */
    public static Batches recomputed(long[] inputs, Converter reference) {
        int[] position = {0};
        return computed((in, exp) -> {
            int n = Math.min(in.length, inputs.length - position[0]);
            System.arraycopy(inputs, position[0], in, 0, n);
            reference.applyParallel(in, 0, exp, 0, n);
            position[0] += n;
            return n;
        });
    }

    /** Batches over every input in [first, end), the expected values computed by the reference on the fly. */
    public static Batches range(long first, long end, Converter reference) {
        long[] next = {first};
        return computed((in, exp) -> {
            int n = (int) Math.min(in.length, end - next[0]);
            long base = next[0];
            int parts = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), n >> 14));
            java.util.stream.IntStream.range(0, parts).parallel().forEach(p -> { // inputs and results, part by part
                int from = (int) ((long) n * p / parts);
                int to = (int) ((long) n * (p + 1) / parts);
                reference.applyConsecutive(base + from, in, exp, from, to - from);
            });
            next[0] += n;
            return n;
        });
    }

    private static Batches computed(Batches batches) {
        return new Batches() {
            @Override
            public int next(long[] in, long[] expected) {
                return batches.next(in, expected);
            }

            @Override
            public boolean computed() {
                return true;
            }
        };
    }

    /** Message lines, one class of message per kind of failure (see MismatchText, AdapterFailure). */
    static final class MismatchText {
        private MismatchText() {
        }

        static String of(Mismatch m, FormatCodec source, FormatCodec destination) {
            return "input " + Values.describe(source, m.input()) + " [" + Values.fields(source, m.input()) + "]: expected "
                    + Values.describe(destination, m.expected()) + ", actual " + Values.describe(destination, m.actual())
                    + " [" + m.kind().label() + "]";
        }
    }
}
