package convcert.suite.diagnosis;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * Every value mismatch of a case, however many, kept as what a diagnosis needs to check a cause against all of
 * them: per cell of the input space (Cells), how many mismatches and an order-free digest of (input, result)
 * pairs, results taken by the run's NaN rule (Judge.canonical), so that a fault run over the same inputs proves
 * itself equal to the device cell by cell; how each result relates to the expected one (Relation); the input
 * classes; and the runs of consecutive mismatching inputs (an exhaustive case's inputs come in order). A
 * mismatch costs a few increments. One log per part of a case (--jobs), joined in input order.
 */
public final class MismatchLog {

    /** Runs kept: more are counted, not kept. */
    static final int RUNS = 1 << 12;

    /** An input's class (for the findings). */
    enum InputClass { ZERO, SUBNORMAL, NORMAL, INFINITY, NAN }

    private final Converter reference;
    private final Judge judge;
    private final long unwritten;
    final Cells cells;
    final long[] count;
    final long[] digest;
    final long[] relations = new long[Relation.KEYS];
    /** By sign (0 +, 1 -) and InputClass. */
    final long[][] inputs = new long[2][InputClass.values().length];
    /** Runs of consecutive inputs, [first, last] each, in input order; runCount counts those not kept too. */
    final List<long[]> runs = new ArrayList<>();
    long runCount;
    long total;

    public MismatchLog(Converter reference, Judge judge, long unwritten) {
        this.reference = reference;
        this.judge = judge;
        this.unwritten = unwritten;
        this.cells = Cells.of(reference.source());
        this.count = new long[cells.count()];
        this.digest = new long[cells.count()];
    }

    /** A mismatch: the operand (value and any lane above it), the expected and the actual result. */
    public void add(long operand, long expected, long actual) {
        FormatCodec dst = reference.destination();
        int cell = cells.of(operand);
        count[cell]++;
        digest[cell] += pair(operand, judge.canonical(dst, actual));
        relations[Relation.of(dst, expected, actual, unwritten)]++;
        long value = operand & reference.source().mask();
        Decoded d = reference.source().decode(value);
        inputs[d.negative() ? 1 : 0][classOf(reference.source(), d).ordinal()]++;
        total++;
        if (!runs.isEmpty() && runs.getLast()[1] == operand - 1) {
            runs.getLast()[1] = operand;
        } else {
            runCount++;
            if (runs.size() < RUNS) {
                runs.add(new long[] {operand, operand});
            }
        }
    }

    /** Joins the log of the next part of the case (inputs after this one's). */
    public void join(MismatchLog later) {
        for (int c = 0; c < count.length; c++) {
            count[c] += later.count[c];
            digest[c] += later.digest[c];
        }
        for (int k = 0; k < relations.length; k++) {
            relations[k] += later.relations[k];
        }
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < inputs[s].length; k++) {
                inputs[s][k] += later.inputs[s][k];
            }
        }
        total += later.total;
        runCount += later.runCount;
        for (long[] r : later.runs) {
            if (!runs.isEmpty() && runs.getLast()[1] == r[0] - 1) {
                runs.getLast()[1] = r[1];
                runCount--;
            } else if (runs.size() < RUNS) {
                runs.add(r.clone());
            }
        }
    }

    /** How many mismatches the log holds. */
    public long total() {
        return total;
    }

    /** Whether every run of mismatching inputs is kept. */
    boolean runsComplete() {
        return runs.size() == runCount;
    }

    /** The digest term of one (input, result) pair: a 64-bit mix, summed per cell so that order does not matter. */
    static long pair(long operand, long result) {
        return mix(operand * 0x9E3779B97F4A7C15L + mix(result ^ 0x632BE59BD9B4E019L));
    }

    private static long mix(long z) { // SplitMix64's finalizer
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static InputClass classOf(FormatCodec src, Decoded d) {
        return switch (d.kind()) {
            case ZERO -> InputClass.ZERO;
            case INFINITE -> InputClass.INFINITY;
            case NAN -> InputClass.NAN;
            case FINITE -> !src.isInteger() && d.binade() < src.minExponent() ? InputClass.SUBNORMAL : InputClass.NORMAL;
        };
    }
}
