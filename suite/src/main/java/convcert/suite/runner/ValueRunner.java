package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.InputMap;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import convcert.vectors.Progress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a conversion case through one adapter instance: the inputs in batches of {@link Batches#BATCH},
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
        FormatCodec source = reference.source();
        long sourceMask = source.mask();
        FormatCodec destination = reference.destination();
        boolean integral = reference.spec().conversion().sameType();
        long[] in = new long[Batches.CHUNK];
        long[] expected = new long[Batches.CHUNK];
        long[] actual = new long[Batches.CHUNK];
        long[] adapterIn = new long[Batches.BATCH];
        long[] adapterOut = new long[Batches.BATCH];
        Map<Long, Long> wrong = new LinkedHashMap<>();
        Map<Long, Integer> wrongFlags = new LinkedHashMap<>();
        long vectors = 0;
        long mismatches = 0;
        List<FirstMismatch> first = new ArrayList<>();
        Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        InputMap.Counter where = InputMap.Counter.of(source.format());
        long firstInput = 0;
        boolean self = outputsAreExpected && batches.computed();
        Flags lane = laneName == null && certifiesFlags(flagsLane, adapter.declaring()) ? reference.flags() : null;
        long[] adapterLane = laneName != null ? new long[Batches.BATCH] : null;
        byte[] adapterFlags = lane != null ? new byte[Batches.BATCH] : null;
        byte[] actualFlags = lane != null ? new byte[Batches.CHUNK] : null;
        int n;
        while ((n = batches.next(in, expected)) > 0) { // chunks of CHUNK; the adapter gets batches of BATCH
            if (self) {
                vectors += n;
                if (progress != null) {
                    progress.batchDone(n);
                }
                continue;
            }
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
                    } else if (lane != null) {
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
                    return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, vectors, mismatches, first, List.of(), kinds,
                            e.getMessage() + " (after " + vectors + " vectors)", millis(start)), wrong);
                }
                if (lane != null || !Arrays.equals(expected, from, from + size, actual, from, from + size)) {
                    for (int i = from; i < from + size; i++) {
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
                vectors += size;
                if (progress != null) {
                    progress.batchDone(size);
                }
            }
        }
        if (vectors == 0) {
            return new Outcome(CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify"), wrong);
        }
        if (!self) {
            try { // a batch of none: the adapter shows nothing of this case is still pending
                adapter.call(a -> a.convert(key, adapterIn, adapterOut, 0), () -> "the batch of 0 after the case");
            } catch (AdapterException e) {
                adapter.recover();
                return new Outcome(new CaseResult(key, Status.ADAPTER_ERROR, vectors, mismatches, first, List.of(), kinds,
                        e.getMessage() + " (after all " + vectors + " vectors)", millis(start)), wrong);
            }
        }
        List<String> rules = first.isEmpty() ? List.of() : reference.explain(firstInput).rules();
        return new Outcome(new CaseResult(key, mismatches == 0 ? Status.PASS : Status.FAIL, vectors, mismatches, first, rules,
                kinds, null, null, millis(start), null, Map.of(), mismatches == 0 || where == null ? null : where.map()), wrong,
                wrongFlags);
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
