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
    void aDiagnosisSaysWhatItExplainsAndOnWhatSample() {
        Diagnosis complete = new Diagnosis(5, 100, true, List.of(new Diagnosis.Hypothesis("ties-away", "ties away from zero",
                5, 0)), List.of(), 5, 100);
        assertEquals("all 5 mismatches, and none of the 100 passes, are explained by: ties-away (ties away from zero)",
                ReportText.diagnosis(complete));
        assertEquals("ties-away", ReportText.cause(complete));
        Diagnosis partial = new Diagnosis(4, 10, false, List.of(new Diagnosis.Hypothesis("ftz", "flush to zero", 2, 1)),
                List.of("0x00000001"), 400, 1000);
        assertEquals("best partial explanation: ftz (flush to zero) explains 2 of 4 mismatches and changes 1 of 10 passes"
                + " (tried on the first 4 of the case's 400 mismatches and the first 10 of its 1000 passes);"
                + " not explained: 0x00000001 ...", ReportText.diagnosis(partial));
        assertEquals("partial: ftz", ReportText.cause(partial));
        assertEquals("unexplained", ReportText.cause(null));
    }
}
