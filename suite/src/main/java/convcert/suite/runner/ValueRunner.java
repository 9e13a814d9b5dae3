package convcert.suite.runner;

import convcert.common.Progress;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.Operands;
import convcert.spec.Lane;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.suite.diagnosis.MismatchLog;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs a conversion case through one adapter instance: the inputs in batches of {@link Batches#BATCH}
 * (or, for an adapter with packed memory, PackedRunner's batches in two slots), each result compared
 * with the expected value by the run's {@link Comparison}, mismatches classified by value (Tally), and
 * where the profile has exception flags and the adapter reports them, each element's flags with the
 * reference's (a right value with wrong flags is a mismatch of kind FLAGS). A failing adapter ends the
 * case as ADAPTER_ERROR. The variants of a state run alike: in lockstep, their expected values computed once.
 */
public final class ValueRunner {

    /** Wrong answers kept per case for the diagnosis. */
    static final int DIAGNOSED = 1 << 16;

    /**
     * What the output array holds before every call: an output the adapter leaves unwritten is this,
     * a mismatch (bits beyond the width of every format narrower than 64 bits), never a stale answer.
     */
    public static final long POISON = MismatchKind.UNWRITTEN;

    /**
     * A case's result and its wrong answers (input -> actual), at most DIAGNOSED of them, in input order;
     * wrongFlags: the inputs whose result was right and whose flags were not (input -> actual flags); log: every
     * value mismatch (null for a case that did not run).
     */
    public record Outcome(CaseResult result, Map<Long, Long> wrong, Map<Long, Integer> wrongFlags, MismatchLog log) {

        public Outcome(CaseResult result, Map<Long, Long> wrong) {
            this(result, wrong, Map.of(), null);
        }
    }

    /** What the flags array holds before every call: bits no flag has, so unwritten flags are a mismatch. */
    static final byte FLAGS_POISON = (byte) 0xE0;

    private final Comparison comparison;
    private final int firstMismatches;
    private final boolean outputsAreExpected;
    private final boolean flagsLane;
    private final ExpectedCache cache;

    /**
     * outputsAreExpected: the adapter computes exactly the run's expected values (the reference adapter
     * on this run's reference), so where those are computed now (exhaustive runs, recomputed vectors)
     * nothing is computed or compared twice; stored golden values are still compared. cache: the
     * expected-value digests of exhaustive cases kept between runs, or null.
     */
    public ValueRunner(Comparison comparison, int firstMismatches, boolean outputsAreExpected, boolean flagsLane,
                       ExpectedCache cache) {
        this.comparison = comparison;
        this.firstMismatches = firstMismatches;
        this.outputsAreExpected = outputsAreExpected;
        this.flagsLane = flagsLane;
        this.cache = cache;
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
        return runAlike(adapter, List.of(key), List.of(reference), () -> batches, progress).getFirst();
    }

    /**
     * Runs cases alike, the variants of one state (their expected values the same: references.get(0)'s,
     * the others explain their own): in lockstep where the adapter has packed memory, one chunk computed
     * for all of them (PackedRunner); else one after another, each with batches of its own. An outcome
     * per key, in order.
     */
    public List<Outcome> runAlike(AdapterInstance adapter, List<CaseKey> keys, List<Converter> references,
                                  Supplier<Batches> batches, Progress progress) {
        long start = System.nanoTime();
        Converter reference = references.getFirst();
        Lane laneName = reference.lane();
        Outcome[] outcomes = new Outcome[keys.size()];
        List<Integer> running = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (!adapter.applies(keys.get(i))) {
                outcomes[i] = new Outcome(CaseResult.without(keys.get(i), Status.NOT_APPLICABLE, "not implemented by the adapter"),
                        Map.of());
            } else if (laneName != null && !takesLane(adapter.declaring(), laneName)) {
                outcomes[i] = new Outcome(CaseResult.without(keys.get(i), Status.NOT_APPLICABLE, switch (laneName) {
                    case RANDOM -> "stochastic rounding: the adapter takes no random bits (spi.RandomOperations)";
                    case SCALE -> "a scaled conversion: the adapter takes no scales (spi.ScaleOperations)";
                    case SCALE_RANDOM -> "a scaled conversion with stochastic rounding: the adapter takes no scales with random "
                            + "bits (spi.ScaleOperations and spi.RandomOperations)";
                }), Map.of());
            } else {
                running.add(i);
            }
        }
        if (running.isEmpty()) {
            return List.of(outcomes);
        }
        Flags lane = laneName == null && certifiesFlags(flagsLane, adapter.declaring()) ? reference.flags() : null;
        Batches first = batches.get();
        boolean self = outputsAreExpected && first.computed();
        List<Tally> tallies = running.stream().map(i -> new Tally(comparison, firstMismatches, references.get(i), lane)).toList();
        if (!self && PackedRunner.applies(adapter, reference, lane != null)) {
            String failure = PackedRunner.run(adapter, running.stream().map(keys::get).toList(), reference, first, progress,
                    tallies, cache);
            for (int j = 0; j < running.size(); j++) {
                outcomes[running.get(j)] = finish(adapter, keys.get(running.get(j)), tallies.get(j), failure, false, start);
            }
            return List.of(outcomes);
        }
        Order order = new Order();
        for (int j = 0; j < running.size(); j++) {
            CaseKey key = keys.get(running.get(j));
            Batches b = j == 0 ? first : batches.get();
            String failure = self ? runSelf(b, progress, tallies.get(j))
                    : runBatches(adapter, key, reference, b, progress, tallies.get(j), order);
            outcomes[running.get(j)] = finish(adapter, key, tallies.get(j), failure, self, start);
        }
        return List.of(outcomes);
    }

    /** A case's outcome once its vectors ran: after a batch of 0 (the adapter shows nothing is pending), unless it failed. */
    private static Outcome finish(AdapterInstance adapter, CaseKey key, Tally tally, String failure, boolean self, long start) {
        if (failure == null && tally.vectors > 0 && !self) {
            try {
                adapter.call(a -> a.convert(key, new long[0], new long[0], 0), () -> "the batch of 0 after the case");
            } catch (AdapterException e) {
                adapter.recover();
                failure = e.getMessage() + " (after all " + tally.vectors + " vectors)";
            }
        }
        return tally.outcome(key, failure, millis(start));
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
                              Tally tally, Order order) {
        long sourceMask = reference.source().mask();
        Lane laneName = reference.lane();
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
                int turn = order.next(size);
                try {
                    // element k of the call is element (k + turn) mod size of the batch
                    System.arraycopy(in, from + turn, adapterIn, 0, size - turn);
                    System.arraycopy(in, from, adapterIn, size - turn, turn);
                    Arrays.fill(adapterOut, 0, size, POISON);
                    if (adapterLane != null) { // operands: the value to inputs, its random bits or scale (or both, one word) beside it
                        for (int k = 0; k < size; k++) {
                            adapterLane[k] = reference.operands().lane(adapterIn[k]);
                            adapterIn[k] &= sourceMask;
                        }
                        adapter.call(a -> {
                            if (a instanceof RandomOperations r && laneName == Lane.RANDOM) {
                                r.convert(key, adapterIn, adapterLane, adapterOut, size);
                            } else {
                                ((ScaleOperations) a).convertScaled(key, adapterIn, adapterLane, adapterOut, size);
                            }
                        }, () -> "batch of " + size);
                    } else if (tally.lane != null) {
                        Arrays.fill(adapterFlags, 0, size, FLAGS_POISON);
                        adapter.call(a -> ((FlagOperations) a).convert(key, adapterIn, adapterOut, adapterFlags, size),
                                () -> "batch of " + size);
                        System.arraycopy(adapterFlags, 0, actualFlags, from + turn, size - turn);
                        System.arraycopy(adapterFlags, size - turn, actualFlags, from, turn);
                    } else {
                        adapter.call(a -> a.convert(key, adapterIn, adapterOut, size), () -> "batch of " + size);
                    }
                    System.arraycopy(adapterOut, 0, actual, from + turn, size - turn);
                    System.arraycopy(adapterOut, size - turn, actual, from, turn);
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
     * An input as a report shows it: with its lane where it has one, random bits in hex ("0x3F800001
     * random 0x1FFF"), a scale as the power of two it gives and its bits ("0x3F800000 scale -10 (0xF6)"),
     * both where it has both ("0x3F800000 scale -10 (0xF6) random 0x1FFF").
     */
    static Shown input(Converter reference, long operand) {
        Shown value = Shows.of(reference.source(), operand & reference.source().mask());
        Lane lane = reference.lane();
        if (lane == null) {
            return value;
        }
        Operands o = reference.operands();
        String scale = "scale " + o.scaleExponent(operand) + " (" + hex(o.scaleCode(operand)) + ")";
        String random = "random " + hex(o.random(operand));
        return new Shown(value.bits() + " " + switch (lane) {
            case RANDOM -> random;
            case SCALE -> scale;
            case SCALE_RANDOM -> scale + " " + random;
        }, value.reads());
    }

    private static String hex(long bits) {
        return "0x" + Long.toHexString(bits).toUpperCase(Locale.ROOT);
    }

    /**
     * Whether an adapter takes a case's lane: random bits (spi.RandomOperations), scales
     * (spi.ScaleOperations), or both, which reach it as scale words with the random bits above the field.
     */
    private static boolean takesLane(Object adapter, Lane lane) {
        boolean random = adapter instanceof RandomOperations r && r.takesRandomBits();
        boolean scales = adapter instanceof ScaleOperations s && s.takesScales();
        return switch (lane) {
            case RANDOM -> random;
            case SCALE -> scales;
            case SCALE_RANDOM -> random && scales;
        };
    }

    /** "03 (inexact underflow)". */
    static String flagText(int flags) {
        return String.format("%02x (%s)", flags, (flags & ~0x1F) != 0 ? "not flags: bits above invalid" : Flags.describe(flags));
    }

    static long millis(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
