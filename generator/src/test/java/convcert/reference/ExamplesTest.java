package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.Example;
import convcert.spi.CtrlState;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every worked example of the document (examples.csv) holds; errata rows hold their corrected value. */
class ExamplesTest {

    @TestFactory
    Stream<DynamicTest> everyExampleRow() {
        return Stream.of("ascend-c", "cuda", "ocp-mx", "rocm", "riscv", "arm", "gfx950", "p3109", "ieee754", "llvm").flatMap(profile -> examples(TestProfile.reference(profile)));
    }

    private static Stream<DynamicTest> examples(Reference reference) {
        return reference.tables().examples().stream().map(e -> DynamicTest.dynamicTest(reference.tables().profile() + " " +
                e.id() + (e.erratum() ? " (erratum)" : "") + " [" + e.location() + "]", () -> {
                    CtrlState ctrl = reference.tables().powerOnCtrl();
                    for (var bit : e.ctrl().entrySet()) {
                        ctrl = ctrl.with(bit.getKey(), bit.getValue());
                    }
                    Case c = reference.resolve(e.conversion(), e.rounding(), e.form(), ctrl);
                    Converter converter = reference.converter(c);
                    long actual = converter.apply(e.input());
                    var to = e.conversion().to();
                    assertEquals(to.hex(e.expected()), to.hex(actual), () -> e.id() + ": " + c.describe() + " of "
                            + e.conversion().from().hex(e.input()) + "; document says " + e.documentSays()
                            + "\n" + converter.explain(e.input()).render());
                }));
    }

    @Test
    void errataAreMarkedAndNamed() {
        long errata = TestProfile.tables().examples().stream().filter(Example::erratum).count();
        assertTrue(errata >= 5, "the document's known errors (int32 -inf, int64 bounds, hif8 1.75, fp8 2.5) are rows");
        TestProfile.tables().examples().stream().filter(Example::erratum)
                .forEach(e -> assertTrue(e.note().startsWith("decision "), e.id() + " names its decision"));
    }
}
