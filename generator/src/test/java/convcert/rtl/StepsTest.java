package convcert.rtl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.NaNs;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.vectors.CoverageModel;
import convcert.vectors.CoverageTag;
import convcert.vectors.Level;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The steps generation of the RTL model against the reference: every case of every profile that has a steps
 * model gives, through its runs and its NaN map, the reference's result on every input of an 8- or 16-bit
 * source and on the ci set's inputs of a wider one. These are the values the module writes out;
 * ReferenceModelTest simulates modules of each pair of formats under Verilator to show that the writing keeps them.
 */
// every input of about 3 500 cases and the ci inputs of the wide ones: about 20 s on 2 cores
class StepsTest {

    @Test
    void everyCaseWithStepsGivesTheReferencesResults() throws IOException {
        List<String> wrong = new ArrayList<>();
        int narrow = 0;
        int wide = 0;
        try (Stream<Path> profiles = Files.list(TestProfile.home().resolve("spec-tables"))) {
            for (Path dir : profiles.filter(d -> Files.isRegularFile(d.resolve("formats.csv"))).sorted().toList()) {
                Reference reference = TestProfile.reference(dir.getFileName().toString());
                CoverageModel ci = new CoverageModel(reference, CoverageTag.builtIn(), Level.CI, 1);
                for (Conversion c : reference.tables().conversions()) {
                    for (Rounding mode : c.modes()) {
                        for (Case state : reference.saturationStates(c, mode)) {
                            Converter converter = reference.converter(state);
                            boolean all = c.from().width() <= 16;
                            Steps steps = Steps.model(converter).steps();
                            if (steps == null) {
                                continue; // a lane, no order, more runs than a model may have, or refused by its own check
                            }
                            if (all) {
                                narrow++;
                            } else {
                                wide++;
                            }
                            long[] inputs = all ? LongStream.rangeClosed(0, c.from().mask()).toArray() : ci.inputs(c).bits();
                            String first = firstDifference(converter, steps, inputs);
                            if (first != null) {
                                wrong.add(dir.getFileName() + " " + state.describe() + ": " + first);
                            }
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(narrow > 3500 && wide > 100, "narrow cases " + narrow + ", wide cases " + wide);
    }

    private static String firstDifference(Converter converter, Steps steps, long[] inputs) {
        FormatCodec src = converter.source();
        NanMap nans = NanMap.of(converter);
        for (long x : inputs) {
            long want = converter.apply(x);
            long got = NaNs.isNaN(src, x) ? nans.apply(x, src.signBit()) : steps.evaluate(src, x);
            if (got != want) {
                return "input " + src.format().hex(x) + " model " + Long.toHexString(got) + " reference " + Long.toHexString(want);
            }
        }
        return null;
    }

    /** A wide source: float->HiFloat8 in TA has a run per code, found by search and checked at and beside each step. */
    @Test
    void aWideSourceIsSplitByMagnitudeAndCheckedAtItsSteps() {
        Reference ascend = TestProfile.reference();
        Converter ta = ascend.converter(ascend.resolve("float", "hifloat8", "rna", "nosat", ascend.ctrl("60=0")));
        assertNull(Steps.unsupported(ta));
        Steps steps = Steps.find(ta);
        assertNotNull(steps);
        assertEquals(Steps.Order.SIGN_MAGNITUDE, steps.order());
        // per sign: zero, the 126 finite codes of that sign, infinity (the negatives have no zero of their own)
        assertEquals(List.of(128, 128), steps.runs().stream().map(List::size).toList());
        assertEquals(0x6EL, steps.evaluate(ta.source(), 0x471FFFFFL), "40959.996 is the largest below TA's overflow");
        assertEquals(0x6FL, steps.evaluate(ta.source(), 0x47200000L), "40960 = 1.25 * 2^15 rounds to Inf's code");
        // hybrid rounding takes the input's own low bits as its threshold: no step function of the magnitude
        Converter hr = ascend.converter(ascend.resolve("float", "hifloat8", "rh", "nosat", ascend.ctrl("60=0")));
        assertTrue(Steps.unsupported(hr).contains("not a step function"), Steps.unsupported(hr));
        // float->int16 changes result at 2^16 inputs
        Converter wide = ascend.converter(ascend.resolve("float", "int16", "rz", "nosat", ascend.ctrl("60=0")));
        assertTrue(Steps.unsupported(wide).contains("more than 4096"), Steps.unsupported(wide));
    }
}
