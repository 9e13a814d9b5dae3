package convcert.suite.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.families.CaseKeys;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.SpecTables;
import convcert.spi.CaseKey;
import convcert.suite.model.CaseResult;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A case's tally: every mismatch counted and classified, only the first few shown, the wrong answers kept
 * for the diagnosis, NaN for NaN judged by the run's Comparison, and the case's status from what it saw.
 */
class TallyTest {

    private static final Reference ASCEND = Reference.of(SpecTables.load(Path.of(System.getProperty("convcert.home"))
            .resolve("spec-tables/ascend-c")));
    private static final CaseKey FLOAT_TO_HALF = CaseKeys.ofProfile(ASCEND).stream()
            .filter(k -> k.name().equals("float->half/rn-nosat")).findFirst().orElseThrow();

    private static Tally tally(int shown) {
        Converter converter = ASCEND.converter(ASCEND.resolve(FLOAT_TO_HALF));
        return new Tally(Comparison.of(ASCEND), shown, converter, null);
    }

    @Test
    void countsEveryMismatchAndShowsTheFirstOnes() {
        Tally t = tally(2);
        long[] in = {0x3F800000L, 0x3F800000L, 0xBF800000L, 0x7FC00000L, 0x38000000L, 0x40000000L};
        long[] expected = {0x3C00, 0x3C00, 0xBC00, 0x7E00, 0x0200, 0x4000};
        long[] actual = {0x3C00, 0x3C01, 0x3C00, 0x7E01, 0x0000, 0x4000};
        t.judge(in, expected, actual, null, 0, in.length);
        t.vectors += in.length;
        assertEquals(3, t.mismatches, "one step, the sign, a flushed subnormal; another NaN agrees");
        assertEquals(Map.of(MismatchKind.ONE_STEP, 1L, MismatchKind.SIGN, 1L, MismatchKind.FLUSHED, 1L), t.kinds);
        assertEquals(2, t.first.size(), "shown: the first two");
        assertEquals(List.of("0x3C01", "0x3C00"), t.first.stream().map(m -> ((FirstMismatch.Value) m).actual().bits()).toList());
        assertEquals(Map.of(0x3F800000L, 0x3C01L, 0xBF800000L, 0x3C00L, 0x38000000L, 0x0000L), t.wrong,
                "every wrong answer kept for the diagnosis");
        CaseResult r = t.outcome(FLOAT_TO_HALF, null, 5).result();
        assertEquals(Status.FAIL, r.status());
        assertEquals(6, r.vectors());
        assertEquals(3, r.mismatches());
    }

    @Test
    void aCaseWithoutMismatchesPassesAndOneWithoutVectorsIsAnError() {
        Tally t = tally(10);
        t.judge(new long[] {0x3F800000L}, new long[] {0x3C00}, new long[] {0x3C00}, null, 0, 1);
        t.vectors = 1;
        assertEquals(Status.PASS, t.outcome(FLOAT_TO_HALF, null, 1).result().status());
        assertEquals(Status.ERROR, tally(10).outcome(FLOAT_TO_HALF, null, 1).result().status(), "no vectors judged");
        assertEquals(Status.ADAPTER_ERROR, tally(10).outcome(FLOAT_TO_HALF, "the device died", 1).result().status());
    }

    @Test
    void anUnwrittenOutputIsAMismatchOfItsOwnKind() {
        Tally t = tally(10);
        t.unwritten(0x3F800000L, 0x3C00);
        t.vectors = 1;
        assertEquals(Map.of(MismatchKind.UNANSWERED, 1L), t.kinds);
        assertEquals(List.of("unwritten"), t.first.stream().map(m -> ((FirstMismatch.Value) m).actual().bits()).toList());
        assertEquals(Status.FAIL, t.outcome(FLOAT_TO_HALF, null, 1).result().status());
    }
}
