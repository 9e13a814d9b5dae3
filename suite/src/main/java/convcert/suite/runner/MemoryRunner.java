package convcert.suite.runner;

import convcert.opencl.MemoryVector;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.MemoryCase;
import convcert.spi.MemoryOperations;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one OpenCL memory case (vloadn/vstoren, vload_half/vstore_half, as_type). Vectors with an
 * implementation-defined result are run and recorded, not judged; negative vectors (errors of the
 * reference) only go to adapters that check alignment, which must refuse them.
 */
final class MemoryRunner {

    /** What each result slot holds before the call: a slot the adapter leaves as it is was not answered. */
    private static final byte[] UNANSWERED = new byte[0];

    private final Comparison comparison;
    private final int firstMismatches;

    MemoryRunner(Comparison comparison, int firstMismatches) {
        this.comparison = comparison;
        this.firstMismatches = firstMismatches;
    }

    CaseResult run(AdapterInstance adapter, CaseKey key, MemoryCase c, List<MemoryVector> all) {
        long start = System.nanoTime();
        if (!(adapter.declaring() instanceof MemoryOperations memory) || !memory.memoryCapabilities().contains(c.name())) {
            return CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter");
        }
        // Misaligned and size-mismatch vectors go only to adapters that check; a disabled extension is a
        // compile-time error of the kernel source, not a vector any adapter can refuse: reference only.
        List<MemoryVector> vectors = all.stream()
                .filter(v -> v.outcome() != MemoryVector.Outcome.EXTENSION_DISABLED)
                .filter(v -> !v.outcome().negative() || adapter.declaring().checksAlignment()).toList();
        int n = vectors.size();
        long[] pointers = new long[n];
        long[] offsets = new long[n];
        byte[][] memories = new byte[n][];
        byte[][] data = new byte[n][];
        byte[][] results = new byte[n][];
        Arrays.fill(results, UNANSWERED);
        for (int i = 0; i < n; i++) {
            MemoryVector v = vectors.get(i);
            pointers[i] = v.pointer();
            offsets[i] = v.offset();
            memories[i] = v.memory();
            data[i] = v.data();
        }
        try {
            adapter.call(a -> ((MemoryOperations) a).run(c, pointers, offsets, memories, data, results, n),
                    () -> n + " vectors of " + c.name());
        } catch (AdapterException e) {
            adapter.recover();
            return new CaseResult(key, Status.ADAPTER_ERROR, 0, 0, List.of(), List.of(), Map.of(), e.getMessage(),
                    ValueRunner.millis(start));
        }
        return judge(key, c, vectors, results, start);
    }

    /** Each vector's answer against the expected bytes; an implementation-defined one recorded, not judged. */
    private CaseResult judge(CaseKey key, MemoryCase c, List<MemoryVector> vectors, byte[][] results, long start) {
        int n = vectors.size();
        long mismatches = 0;
        List<FirstMismatch> first = new ArrayList<>();
        List<String> recorded = new ArrayList<>();
        Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            MemoryVector v = vectors.get(i);
            byte[] got = results[i];
            boolean answered = got != UNANSWERED;
            if (answered && v.outcome() == MemoryVector.Outcome.IMPLEMENTATION_DEFINED) {
                if (recorded.size() < 3) {
                    recorded.add("p=" + v.pointer() + " offset=" + v.offset() + (v.data() == null ? "" : " data="
                            + MemoryVector.hex(v.data())) + " -> " + MemoryVector.hex(got));
                }
                continue;
            }
            boolean refused = v.outcome().negative();
            boolean ok = answered && (refused ? got == null : got != null && got.length >= v.comparedBytes()
                    && comparison.sameBytes(c, v.expectedFor(got), got, v.comparedBytes()));
            if (!ok) {
                mismatches++;
                kinds.merge(!answered ? MismatchKind.UNANSWERED : refused ? accepted(v.outcome())
                        : MismatchKind.WRONG_BYTES, 1L, Long::sum);
                if (first.size() < firstMismatches) {
                    first.add(new FirstMismatch.Memory(v.pointer(), v.offset(), v.data() == null ? null
                            : MemoryVector.hex(v.data()), refused ? null : v.expectedHex(v.comparedBytes()),
                            refused ? v.outcome().label() : null, answered, got == null || !answered ? null
                            : MemoryVector.hex(got)));
                }
            }
        }
        boolean onlyRecorded = vectors.stream().allMatch(v -> v.outcome() == MemoryVector.Outcome.IMPLEMENTATION_DEFINED);
        String message = recorded.isEmpty() ? null : "implementation-defined, recorded not judged: " + String.join("; ", recorded);
        Status status = onlyRecorded ? Status.NOT_APPLICABLE : mismatches == 0 ? Status.PASS : Status.FAIL;
        return new CaseResult(key, status, n, mismatches, first, List.of("opencl " + c.name() + " (spec-tables/opencl)"),
                kinds, message, ValueRunner.millis(start));
    }

    /** A memory vector the reference refuses (misaligned, sizes that differ) that the adapter ran. */
    private static MismatchKind accepted(MemoryVector.Outcome refused) {
        return switch (refused) {
            case MISALIGNED -> MismatchKind.ACCEPTED_MISALIGNED;
            case SIZE_MISMATCH -> MismatchKind.ACCEPTED_SIZE_MISMATCH;
            default -> throw new IllegalArgumentException("not a refused outcome a device runs: " + refused);
        };
    }
}
