package convcert.suite.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.suite.model.ConformanceReport.Entry;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Findings: the variants of one state (its API forms and CTRL settings) that fail alike are one thing to fix,
 * named by the state; a variant that fails otherwise is a finding of its own; passes are none.
 */
class FindingsTest {

    private static Entry entry(String variant, String form, String ctrl, Status status, long mismatches) {
        String name = "float->hifloat8/rn-sat" + (variant.isEmpty() ? "" : " [" + variant + "]");
        return new Entry(name, "float->hifloat8", "float", "hifloat8", "rn", "sat", form, ctrl, status, 100, mismatches,
                mismatches == 0 ? Map.of() : Map.of(MismatchKind.OVERFLOW, mismatches), List.of(), List.of(), null, null, 1,
                null, Map.of(), null);
    }

    @Test
    void variantsFailingAlikeAreOneFindingNamedByTheirState() {
        List<Entry> entries = List.of(entry("", "sat", "60=0", Status.FAIL, 3),
                entry("nosat 60=1", "nosat", "60=1", Status.FAIL, 3),
                entry("implicit 60=1", "implicit", "60=1", Status.FAIL, 5),
                entry("sat 60=1", "sat", "60=1", Status.PASS, 0));
        List<Findings.Finding> findings = Findings.of(entries);
        assertEquals(List.of("float->hifloat8/rn-sat", "float->hifloat8/rn-sat [implicit 60=1]"),
                findings.stream().map(Findings.Finding::name).toList());
        assertEquals(2, findings.getFirst().variants().size(), "the two alike variants");
    }

    @Test
    void aStateWithOneFailingVariantIsNamedByThatVariant() {
        List<Findings.Finding> findings = Findings.of(List.of(entry("", "sat", "60=0", Status.PASS, 0),
                entry("nosat 60=1", "nosat", "60=1", Status.FAIL, 3)));
        assertEquals(List.of("float->hifloat8/rn-sat [nosat 60=1]"), findings.stream().map(Findings.Finding::name).toList());
    }
}
