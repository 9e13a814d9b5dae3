package convcert.suite.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.suite.model.Diagnosis;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.FirstMismatch.Shown;
import convcert.suite.model.MismatchKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The words of a report: a mismatch line shows every value in hex and decoded with its kind, a block line
 * says how many more parts were wrong, a memory line tells a refusal from no answer, and a diagnosis says
 * what it explains and on what sample.
 */
class ReportTextTest {

    private static final Shown ONE = new Shown("0x3C00", "1.0");
    private static final Shown NEXT = new Shown("0x3C01", "1.0009765625");

    @Test
    void aValueMismatchShowsInputExpectedAndActualDecoded() {
        FirstMismatch m = new FirstMismatch.Value(new Shown("0x3F800000", "1.0"), "s=0 e=127 m=0x000000", ONE, NEXT,
                MismatchKind.ONE_STEP);
        assertEquals("input 0x3F800000 (1.0) [s=0 e=127 m=0x000000]: expected 0x3C00 (1.0), actual 0x3C01 (1.0009765625)"
                + " [one step (rounding)]", ReportText.line(m));
    }

    @Test
    void aBlockMismatchNamesItsPartsAndCountsTheRest() {
        FirstMismatch m = new FirstMismatch.Block(7, List.of(new FirstMismatch.BlockValue("scale", ONE, NEXT,
                MismatchKind.ONE_STEP)), 3, List.of("0x3F800000", "0x40000000"));
        assertEquals("block 7: scale: expected 0x3C00 (1.0), actual 0x3C01 (1.0009765625) [one step (rounding)]; and 3 more;"
                + " inputs [0x3F800000 0x40000000]", ReportText.line(m));
    }

    @Test
    void aMemoryMismatchTellsRefusedFromUnanswered() {
        assertEquals("p=1 offset=2: expected 00 3c, actual refused",
                ReportText.line(new FirstMismatch.Memory(1, 2, null, "00 3c", null, true, null)));
        assertEquals("p=1 offset=2 data=00 3c: expected a refusal (misaligned), actual no result",
                ReportText.line(new FirstMismatch.Memory(1, 2, "00 3c", null, "a refusal (misaligned)", false, null)));
    }

    @Test
    void aDiagnosisNamesItsCausesWithTheirScopeAndWhatItChecked() {
        Diagnosis exact = new Diagnosis(true, List.of(new Diagnosis.Hypothesis("ties-away", "ties away from zero", 5, 0, null,
                null)), List.of(new Diagnosis.Finding(5, "one step away from zero (normal results)")), 5, 100, 5, 100, false);
        assertEquals("ties-away (ties away from zero): gives all 5 mismatches and changes none of the 100 passes; where and"
                + " how: 5: one step away from zero (normal results)", ReportText.diagnosis(exact));
        assertEquals("ties-away", ReportText.cause(exact));
        Diagnosis scoped = new Diagnosis(true, List.of(new Diagnosis.Hypothesis("ties-away", "ties away from zero", 8, 6,
                "|x| < 2^-6", "2^-6 <= |x| < 448")), List.of(), 8, 2358, 8, 2358, false);
        assertEquals("partly ties-away (ties away from zero): where |x| < 2^-6 it gives every result, all 8 mismatches"
                + " among them; elsewhere it does not hold (it would change 6 passing vectors where 2^-6 <= |x| < 448)",
                ReportText.diagnosis(scoped));
        assertEquals("partly ties-away", ReportText.cause(scoped));
        Diagnosis none = new Diagnosis(false, List.of(), List.of(new Diagnosis.Finding(1_048_574,
                "expected the largest finite, got NaN"), new Diagnosis.Finding(1_048_574, "464 < |x| < 480 (every input there "
                + "differs)")), 1_048_574, 4_293_918_722L, 1_048_574, 4_293_918_722L, true);
        assertEquals("no cause of the catalogue gives these results; where and how: 1,048,574: expected the largest finite,"
                + " got NaN; 1,048,574: 464 < |x| < 480 (every input there differs)", ReportText.diagnosis(none));
        assertEquals("unexplained", ReportText.cause(none));
        assertEquals("unexplained", ReportText.cause(null));
    }
}
