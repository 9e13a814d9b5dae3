package convcert.suite.runner;

import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spi.CaseKey;
import convcert.suite.diagnosis.MismatchLog;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.InputMap;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A case's mismatches as they are found: counts, kinds, the first ones shown, the wrong answers kept for diagnosis. */
final class Tally {

    private final Comparison comparison;
    private final int firstMismatches;
    final Converter reference;
    /** The flags the reference raises, where they are certified; else null. */
    final Flags lane;
    private final long sourceMask;
    private final boolean integral;
    final Map<Long, Long> wrong = new LinkedHashMap<>();
    final Map<Long, Integer> wrongFlags = new LinkedHashMap<>();
    final List<FirstMismatch> first = new ArrayList<>();
    final Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
    final InputMap.Counter where;
    /** Every value mismatch, for the diagnosis to check its causes against. */
    final MismatchLog log;
    long vectors;
    long mismatches;
    /** Why the case's results cannot be trusted though the adapter answered (a contradicted expected-value cache), or null. */
    String error;
    long firstInput;

    Tally(Comparison comparison, int firstMismatches, Converter reference, Flags lane) {
        this.comparison = comparison;
        this.firstMismatches = firstMismatches;
        this.reference = reference;
        this.lane = lane;
        this.sourceMask = reference.source().mask();
        this.integral = reference.spec().conversion().integral();
        this.where = InputCells.counter(reference.source().format());
        this.log = new MismatchLog(reference, comparison, MismatchKind.UNWRITTEN);
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
            if (!sameValue) { // the fault models explain values
                log.add(in[i], expected[i], actual[i]);
                if (wrong.size() < ValueRunner.DIAGNOSED) {
                    wrong.put(in[i], actual[i]);
                }
            } else if (sameValue && wrongFlags.size() < ValueRunner.DIAGNOSED) { // the flag decisions explain flags
                wrongFlags.put(in[i], actualFlags[i] & 0xFF);
            }
            long value = in[i] & sourceMask;
            MismatchKind kind = sameValue ? MismatchKind.FLAGS
                    : MismatchClassifier.classify(source, value, destination, expected[i], actual[i], integral);
            int at = i; // the lambda's copy
            count(in[i], kind, () -> sameValue ? new FirstMismatch.Flags(Shows.of(source, value), Values.fields(source, value),
                    Shows.of(destination, actual[at]), ValueRunner.flagText(wantFlags),
                    ValueRunner.flagText(actualFlags[at] & 0xFF))
                    : new FirstMismatch.Value(ValueRunner.input(reference, in[at]), Values.fields(source, value),
                    Shows.of(destination, expected[at]), Shows.of(destination, actual[at]), kind));
        }
    }

    /** A mismatch of an input: counted, mapped, by kind, and shown while fewer than firstMismatches are. */
    private void count(long in, MismatchKind kind, Supplier<FirstMismatch> shown) {
        mismatches++;
        if (where != null) {
            where.add(in & sourceMask);
        }
        kinds.merge(kind, 1L, Long::sum);
        if (first.size() < firstMismatches) {
            firstInput = first.isEmpty() ? in : firstInput;
            first.add(shown.get());
        }
    }

    /** Whether actual agrees with expected by the run's Comparison. */
    boolean agrees(long expected, long actual) {
        return comparison.same(reference.destination(), expected, actual);
    }

    /** The run's Comparison. */
    Comparison comparison() {
        return comparison;
    }

    /**
     * An element judged right whose output, asked again, proved never written (it read as the poison,
     * which was its expected value): a mismatch of kind UNANSWERED.
     */
    void unwritten(long in, long expected) {
        FormatCodec source = reference.source();
        log.add(in, expected, MismatchKind.UNWRITTEN);
        count(in, MismatchKind.UNANSWERED, () -> new FirstMismatch.Value(ValueRunner.input(reference, in),
                Values.fields(source, in & sourceMask), Shows.of(reference.destination(), expected),
                new Shown("unwritten", "the output still held the poison when asked again"), MismatchKind.UNANSWERED));
    }

    /** The case's result: an error's, an adapter failure's (failure not null), no vectors, or pass or fail. */
    ValueRunner.Outcome outcome(CaseKey key, String failure, long millis) {
        if (error != null) {
            return new ValueRunner.Outcome(new CaseResult(key, Status.ERROR, vectors, mismatches, first, List.of(),
                    kinds, error, millis), wrong);
        }
        if (failure != null) {
            return new ValueRunner.Outcome(new CaseResult(key, Status.ADAPTER_ERROR, vectors, mismatches, first, List.of(),
                    kinds, failure, millis), wrong);
        }
        if (vectors == 0) {
            return new ValueRunner.Outcome(CaseResult.without(key, Status.ERROR, "the case has no vectors: nothing to certify"),
                    wrong);
        }
        List<String> rules = first.isEmpty() ? List.of() : reference.explain(firstInput).rules();
        return new ValueRunner.Outcome(new CaseResult(key, mismatches == 0 ? Status.PASS : Status.FAIL, vectors, mismatches,
                first, rules, kinds, null, null, millis, null, Map.of(), mismatches == 0 || where == null ? null : where.map()),
                wrong, wrongFlags, log);
    }
}
