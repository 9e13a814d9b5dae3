package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.PackedOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.InputMap;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import convcert.vectors.Progress;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a conversion case through one adapter instance: the inputs in batches of {@link Batches#BATCH}
 * (or, for an adapter with packed memory, chunks of {@link Batches#CHUNK} in two slots, PackedOperations),
 * each result compared with the expected value by the run's {@link Comparison}, mismatches classified
 * by value (MismatchKind), and where the profile has exception flags and the adapter reports them, each
 * element's flags with the reference's (a right value with wrong flags is a mismatch of kind FLAGS). A
 * failing adapter ends the case as ADAPTER_ERROR.
 */
public final class ValueRunner {

    /** Wrong answers kept per case for the diagnosis. */
    static final int DIAGNOSED = 1 << 16;

    /**
     * What the output array holds before every call: an output the adapter leaves unwritten is this,
     * a mismatch (bits beyond the width of every format narrower than 64 bits), never a stale answer.
     */
    public static final long POISON = 0xA5A5_A5A5_A5A5_A5A5L;

    /**
     * A case's result and its wrong answers (input -> actual), at most DIAGNOSED of them, in input order;
     * wrongFlags: the inputs whose result was right and whose flags were not (input -> actual flags).
     */
    public record Outcome(CaseResult result, Map<Long, Long> wrong, Map<Long, Integer> wrongFlags) {

        public Outcome(CaseResult result, Map<Long, Long> wrong) {
            this(result, wrong, Map.of());
        }
    }

    /**
     * Elements per packed batch: small enough that a part's arrays stay in the processor's caches (2^20
     * measured 10-15% slower end to end than 2^18 on this project's 2-core machine), large enough that
     * the two calls per batch cost nothing (docs/performance.md, issue 26).
     */
    static final int PACKED_CHUNK = 1 << 18;

    /** Elements computed and packed at a time within a packed batch. */
    static final int PACKED_PIECE = 1 << 14;

    /** A piece of inputs into the kept packed copy and into the slot, from element at. */
    private static void inputsFill(Packing kept, long[] in, int n, int at, MemorySegment slot) {
        kept.set(in, n, false, at);
        kept.copyTo(slot, at, n);
    }

    /** What the flags array holds before every call: bits no flag has, so unwritten flags are a mismatch. */
    static final byte FLAGS_POISON = (byte) 0xE0;

    private final Comparison comparison;
    private final int firstMismatches;
    private final boolean outputsAreExpected;
    private final boolean flagsLane;

    /**
     * outputsAreExpected: the adapter computes exactly the run's expected values (the reference adapter
     * on this run's reference), so where those are computed now (exhaustive runs, recomputed vectors)
     * nothing is computed or compared twice; stored golden values are still compared.
     */
    public ValueRunner(Comparison comparison, int firstMismatches, boolean outputsAreExpected, boolean flagsLane) {
        this.comparison = comparison;
        this.firstMismatches = firstMismatches;
        this.outputsAreExpected = outputsAreExpected;
        this.flagsLane = flagsLane;
    }

    /**
     * flagsLane: the profile's conversions raise exception flags (flags.csv); they are then certified
     * beside the results for adapters that report them (FlagOperations).
     */
    public static boolean certifiesFlags(boolean flagsLane, ConverterAdapter adapter) {
        return flagsLane && adapter instanceof FlagOperations f && f.reportsFlags();
    }

    /** Runs one case; reference is the converter that defines the expected values (for explanations). */
    public Outcome run(AdapterInstance adapter, CaseKey key, Converter reference, Batches batches, Progress progress) {
        long start = System.nanoTime();
        if (!adapter.applies(key)) {
            return new Outcome(CaseResult.without(key, Status.NOT_APPLICABLE, "not implemented by the adapter"), Map.of());
        }
        String laneName = reference.lane();
        if (laneName != null && !takesLane(adapter.declaring(), laneName)) {
            return new Outcome(CaseResult.without(key, Status.NOT_APPLICABLE, laneName.equals("random")
                    ? "stochastic rounding: the adapter takes no random bits (spi.RandomOperations)"
                    : "a scaled conversion: the adapter takes no scales (spi.ScaleOperations)"), Map.of());
        }
        boolean self = outputsAreExpected && batches.computed();
        Flags lane = laneName == null && certifiesFlags(flagsLane, adapter.declaring()) ? reference.flags() : null;
        Tally tally = new Tally(reference, lane);
        boolean packed = !self && laneName == null && lane == null && adapter.declaring() instanceof PackedOperations p
                && p.packed() && p.slotCapacity() >= Batches.CHUNK;
        String failure = self ? runSelf(batches, progress, tally)
                : packed ? runPacked(adapter, key, reference, batches, progress, tally)
                : runBatches(adapter, key, reference, batches, progress, tally);
        if (failure != null) {
            return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, tally.vectors, tally.mismatches, tally.first, List.of(),
                    tally.kinds, failure, millis(start)), tally.wrong);
        }
        if (tally.vectors == 0) {
            return new Outcome(CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify"), tally.wrong);
        }
        if (!self) {
            try { // a batch of none: the adapter shows nothing of this case is still pending
                adapter.call(a -> a.convert(key, new long[0], new long[0], 0), () -> "the batch of 0 after the case");
            } catch (AdapterException e) {
                adapter.recover();
                return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, tally.vectors, tally.mismatches, tally.first,
                        List.of(), tally.kinds, e.getMessage() + " (after all " + tally.vectors + " vectors)", millis(start)),
                        tally.wrong);
            }
        }
        List<String> rules = tally.first.isEmpty() ? List.of() : reference.explain(tally.firstInput).rules();
        return new Outcome(new CaseResult(key, tally.mismatches == 0 ? Status.PASS : Status.FAIL, tally.vectors,
                tally.mismatches, tally.first, rules, tally.kinds, null, null, millis(start), null, Map.of(),
                tally.mismatches == 0 || tally.where == null ? null : tally.where.map()), tally.wrong, tally.wrongFlags);
    }

    /** The reference adapter on the run's own expected values: counted, not computed or compared twice. */
    private static String runSelf(Batches batches, Progress progress, Tally tally) {
        long[] in = new long[Batches.CHUNK];
        long[] expected = new long[Batches.CHUNK];
        int n;
        while ((n = batches.next(in, expected)) > 0) {
            tally.vectors += n;
            if (progress != null) {
                progress.batchDone(n);
            }
        }
        return null;
    }

    /** Batches of long[] through ConverterAdapter (and its lane and flags interfaces); an adapter failure's message, or null. */
    private String runBatches(AdapterInstance adapter, CaseKey key, Converter reference, Batches batches, Progress progress,
                              Tally tally) {
        long sourceMask = reference.source().mask();
        String laneName = reference.lane();
        long[] in = new long[Batches.CHUNK];
        long[] expected = new long[Batches.CHUNK];
        long[] actual = new long[Batches.CHUNK];
        long[] adapterIn = new long[Batches.BATCH];
        long[] adapterOut = new long[Batches.BATCH];
        long[] adapterLane = laneName != null ? new long[Batches.BATCH] : null;
        byte[] adapterFlags = tally.lane != null ? new byte[Batches.BATCH] : null;
        byte[] actualFlags = tally.lane != null ? new byte[Batches.CHUNK] : null;
        int n;
        while ((n = batches.next(in, expected)) > 0) { // chunks of CHUNK; the adapter gets batches of BATCH
            for (int from = 0; from < n; from += Batches.BATCH) {
                int size = Math.min(Batches.BATCH, n - from);
                try {
                    System.arraycopy(in, from, adapterIn, 0, size);
                    Arrays.fill(adapterOut, 0, size, POISON);
                    if (adapterLane != null) { // operands: the value to inputs, its random bits or scale beside it
                        for (int k = 0; k < size; k++) {
                            adapterIn[k] = in[from + k] & sourceMask;
                            adapterLane[k] = reference.lane(in[from + k]);
                        }
                        adapter.call(a -> {
                            if (a instanceof RandomOperations r && laneName.equals("random")) {
                                r.convert(key, adapterIn, adapterLane, adapterOut, size);
                            } else {
                                ((ScaleOperations) a).convertScaled(key, adapterIn, adapterLane, adapterOut, size);
                            }
                        }, () -> "batch of " + size);
                    } else if (tally.lane != null) {
                        Arrays.fill(adapterFlags, 0, size, FLAGS_POISON);
                        adapter.call(a -> ((FlagOperations) a).convert(key, adapterIn, adapterOut, adapterFlags, size),
                                () -> "batch of " + size);
                        System.arraycopy(adapterFlags, 0, actualFlags, from, size);
                    } else {
                        adapter.call(a -> a.convert(key, adapterIn, adapterOut, size), () -> "batch of " + size);
                    }
                    System.arraycopy(adapterOut, 0, actual, from, size);
                } catch (AdapterException e) {
                    adapter.recover();
                    return e.getMessage() + " (after " + tally.vectors + " vectors)";
                }
                if (tally.lane != null || !Arrays.equals(expected, from, from + size, actual, from, from + size)) {
                    tally.judge(in, expected, actual, actualFlags, from, from + size);
                }
                tally.vectors += size;
                if (progress != null) {
                    progress.batchDone(size);
                }
            }
        }
        return null;
    }

    /**
     * Chunks through PackedOperations, two in flight: a chunk's inputs narrowed into a slot, its outputs
     * set to the complement of the expected values (so an output left unwritten is a mismatch whatever
     * the format), the batch started; then the other slot's batch finished and its outputs compared with
     * the packed expected values in one vectorised mismatch, element by element only where that finds
     * a difference. The implementation converts one chunk while the suite computes and checks the next.
     */
    private String runPacked(AdapterInstance adapter, CaseKey key, Converter reference, Batches batches, Progress progress,
                             Tally tally) {
        int inBytes = VectorBytes.of(reference.source().format().width());
        int outBytes = VectorBytes.of(reference.destination().format().width());
        int chunk = PACKED_CHUNK;
        // a batch is computed in pieces small enough to stay in the processor's caches while they are packed;
        // the packed inputs and expected values are kept (on the heap) for the comparison and the report
        int piece = Math.min(chunk, PACKED_PIECE);
        long[] in = new long[piece];
        long[] expected = new long[piece];
        Packing[] packedInputs = {new Packing(inBytes, chunk), new Packing(inBytes, chunk)};
        Packing[] packedExpected = {new Packing(outBytes, chunk), new Packing(outBytes, chunk)};
        Packing scratch = new Packing(outBytes, chunk); // widens outputs
        long[] actual = new long[chunk];
        long[] wholeIn = new long[chunk];
        long[] wholeExpected = new long[chunk];
        int[] counts = new int[PackedOperations.SLOTS];
        MemorySegment[][] slots = new MemorySegment[PackedOperations.SLOTS][2];
        try { // the batch of 0 first: a stopped device starts again, and nothing may be pending
            adapter.call(a -> {
                a.convert(key, new long[0], new long[0], 0);
                PackedOperations p = (PackedOperations) a;
                for (int k = 0; k < PackedOperations.SLOTS; k++) {
                    slots[k][0] = MemorySegment.ofBuffer(p.inputs(k));
                    slots[k][1] = MemorySegment.ofBuffer(p.outputs(k));
                }
            }, () -> "the batch of 0 before the case");
            int slot = 0;
            while (true) {
                int s = slot;
                int other = 1 - s;
                int n = 0;
                for (int k; n < chunk && (k = batches.next(in, expected)) > 0; n += k) {
                    inputsFill(packedInputs[s], in, k, n, slots[s][0]);
                    packedExpected[s].set(expected, k, false, n);
                    scratch.narrowInto(expected, k, slots[s][1], true, n);
                    if (k < piece) {
                        n += k;
                        break;
                    }
                }
                int count = n;
                int m = counts[other];
                if (count == 0 && m == 0) {
                    return null;
                }
                adapter.call(a -> { // one handoff per batch: start this slot, then wait for the other
                    PackedOperations p = (PackedOperations) a;
                    if (count > 0) {
                        p.start(key, s, count);
                    }
                    if (m > 0) {
                        p.finish(key, other);
                    }
                }, () -> m > 0 ? "batch of " + m : "start of a batch of " + count);
                counts[s] = count;
                if (m > 0) {
                    if (packedExpected[other].mismatch(slots[other][1], m) >= 0) {
                        scratch.widen(slots[other][1], m, actual);
                        packedInputs[other].get(m, wholeIn);
                        packedExpected[other].get(m, wholeExpected);
                        tally.judge(wholeIn, wholeExpected, actual, null, 0, m);
                    }
                    tally.vectors += m;
                    counts[other] = 0;
                    if (progress != null) {
                        progress.batchDone(m);
                    }
                }
                slot = other;
            }
        } catch (AdapterException e) {
            adapter.recover();
            return e.getMessage() + " (after " + tally.vectors + " vectors)";
        }
    }

    /** A case's mismatches as they are found: counts, kinds, the first ones shown, the wrong answers kept for diagnosis. */
    private final class Tally {
        final Converter reference;
        /** The flags the reference raises, where they are certified; else null. */
        final Flags lane;
        final long sourceMask;
        final boolean integral;
        final Map<Long, Long> wrong = new LinkedHashMap<>();
        final Map<Long, Integer> wrongFlags = new LinkedHashMap<>();
        final List<FirstMismatch> first = new ArrayList<>();
        final Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        final InputMap.Counter where;
        long vectors;
        long mismatches;
        long firstInput;

        Tally(Converter reference, Flags lane) {
            this.reference = reference;
            this.lane = lane;
            this.sourceMask = reference.source().mask();
            this.integral = reference.spec().conversion().sameType();
            this.where = InputMap.Counter.of(reference.source().format());
        }

        /** Judges elements [from, to): values by the run's Comparison, flags (where certified) exactly. */
        void judge(long[] in, long[] expected, long[] actual, byte[] actualFlags, int from, int to) {
            FormatCodec source = reference.source();
            FormatCodec destination = reference.destination();
            for (int i = from; i < to; i++) {
                boolean sameValue = comparison.same(destination, expected[i], actual[i]);
                int wantFlags = lane != null ? lane.of(in[i], expected[i]) : 0;
                boolean sameFlags = lane == null || actualFlags[i] == wantFlags;
                if (sameValue && sameFlags) {
                    continue;
                }
                mismatches++;
                if (!sameValue && wrong.size() < DIAGNOSED) { // the fault models explain values
                    wrong.put(in[i], actual[i]);
                } else if (sameValue && wrongFlags.size() < DIAGNOSED) { // the flag decisions explain flags
                    wrongFlags.put(in[i], actualFlags[i] & 0xFF);
                }
                long value = in[i] & sourceMask;
                if (where != null) {
                    where.add(value);
                }
                MismatchKind kind = sameValue ? MismatchKind.FLAGS
                        : MismatchKind.classify(source, value, destination, expected[i], actual[i], integral);
                kinds.merge(kind, 1L, Long::sum);
                if (first.size() < firstMismatches) {
                    firstInput = first.isEmpty() ? in[i] : firstInput;
                    first.add(sameValue ? new FirstMismatch.Flags(Shown.of(source, value), Values.fields(source, value),
                            Shown.of(destination, actual[i]), flagText(wantFlags), flagText(actualFlags[i] & 0xFF))
                            : new FirstMismatch.Value(input(reference, in[i]), Values.fields(source, value),
                            Shown.of(destination, expected[i]), Shown.of(destination, actual[i]), kind));
                }
            }
        }
    }

    /**
     * An input as a report shows it: with its lane where it has one, random bits in hex ("0x3F800001
     * random 0x1FFF"), a scale as the power of two it gives and its bits ("0x3F800000 scale -10 (0xF6)").
     */
    static Shown input(Converter reference, long operand) {
        Shown value = Shown.of(reference.source(), operand & reference.source().mask());
        String lane = reference.lane();
        if (lane == null) {
            return value;
        }
        String bits = "0x" + Long.toHexString(reference.lane(operand)).toUpperCase(Locale.ROOT);
        return new Shown(value.bits() + " " + lane + " " + (lane.equals("scale") ? reference.scaleExponent(operand)
                + " (" + bits + ")" : bits), value.reads());
    }

    /** Whether an adapter takes a case's lane: random bits (spi.RandomOperations) or scales (spi.ScaleOperations). */
    private static boolean takesLane(Object adapter, String lane) {
        return lane.equals("random") ? adapter instanceof RandomOperations r && r.takesRandomBits()
                : adapter instanceof ScaleOperations s && s.takesScales();
    }

    /** "03 (inexact underflow)". */
    static String flagText(int flags) {
        return String.format("%02x (%s)", flags, (flags & ~0x1F) != 0 ? "not flags: bits above invalid" : Flags.describe(flags));
    }

    static long millis(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
