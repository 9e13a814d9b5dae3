package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * convcert prove on the example RTL (suite/devices/rtl): every case it implements proven equal to the reference
 * for all 2^32 inputs by both engines; the planted ties-away bug refuted by both with a counterexample that is
 * an rn tie the design breaks away from zero; double->FP8, double->bfloat16, int64->half and float->HiFloat8
 * proven for every input; the steps model proven equal to the datapath model; cvc5 as a third engine; a
 * missing file or a bad port is a usage error. Skipped, and said so, without yosys.
 */
@Tag("slow") // a second to 20 s a proof
class ProveTest {

    static final Path RTL = Fixtures.HOME.resolve("suite/devices/rtl");

    @TempDir
    Path temp;

    static boolean yosys() {
        try {
            return new ProcessBuilder("yosys", "-V").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** prove's arguments for a case of the example RTL: its files, and its ports as run.sh record drives them. */
    private List<String> args(String to, int dst, String rounding, int mode, String state, Path out) {
        boolean sat = !state.equals("nosat");
        boolean keepNaN = state.equals("sat-keepnan");
        List<String> a = new ArrayList<>(List.of("prove", "--from", "float", "--to", to, "--rounding", rounding,
                "--saturation", sat ? "sat" : "nosat", "--ctrl", "60=0,48=1,50=" + (keepNaN ? 1 : 0), "--top", "convert_unit",
                "--set", "dst=" + dst, "--set", "mode=" + mode, "--set", "sat_suffix=" + (sat ? 1 : 0), "--set", "implicit=0",
                "--set", "ctrl60=0", "--set", "ctrl48=1", "--set", "ctrl50=" + (keepNaN ? 1 : 0), "--out", out.toString()));
        for (String f : List.of("convert_unit.sv", "float_to_bf16.sv", "float_to_fp8.sv")) {
            a.addAll(List.of("--rtl", RTL.resolve(f).toString()));
        }
        return a;
    }

    @ParameterizedTest(name = "{0} {2} {4}")
    @CsvSource({"bfloat16, 0, rn, 0, nosat", "bfloat16, 0, rn, 0, sat", "bfloat16, 0, rz, 1, nosat", "bfloat16, 0, rz, 1, sat",
        "bfloat16, 0, ru, 2, nosat", "bfloat16, 0, ru, 2, sat", "bfloat16, 0, rd, 3, nosat", "bfloat16, 0, rd, 3, sat",
        "bfloat16, 0, rna, 4, nosat", "bfloat16, 0, rna, 4, sat", "fp8_e4m3fn, 1, rn, 0, nosat", "fp8_e4m3fn, 1, rn, 0, sat",
        "fp8_e4m3fn, 1, rn, 0, sat-keepnan", "fp8_e5m2, 2, rn, 0, nosat", "fp8_e5m2, 2, rn, 0, sat", "fp8_e5m2, 2, rn, 0, sat-keepnan"})
    void everyCaseOfTheExampleRtlIsProven(String to, int dst, String rounding, int mode, String state) {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Fixtures.Run r = Fixtures.run("", args(to, dst, rounding, mode, state, temp.resolve("p")).toArray(String[]::new));
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference for all 2^32 inputs (both engines)"), r.out());
        assertEquals(2, r.out().lines().filter(l -> l.startsWith("engine") && l.contains("PROVEN")).count(), r.out());
    }

    /** A 64-bit source: double_to_fp8.sv against the ieee754 profile, all 2^64 inputs. */
    @ParameterizedTest(name = "double->{0}")
    @CsvSource({"fp8_e4m3fn, 0", "fp8_e5m2, 1"})
    void doubleToFp8IsProvenForEveryDouble(String to, int e5m2) {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Fixtures.Run r = Fixtures.run("", "prove", "--profile", "ieee754", "--from", "double", "--to", to, "--rounding", "rn",
                "--rtl", RTL.resolve("float_to_fp8.sv").toString(), "--rtl", RTL.resolve("double_to_fp8.sv").toString(),
                "--top", "double_to_fp8", "--param", "E5M2=" + e5m2, "--set", "saturating=0", "--set", "ctrl50=0",
                "--out", temp.resolve("d").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference for all 2^64 inputs (both engines)"), r.out());
    }

    /** double_to_bf16.sv, written by hand from IEEE 754's rules, against the ieee754 profile: all 2^64 inputs. */
    @Test
    void doubleToBfloat16IsProvenForEveryDouble() {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Fixtures.Run r = Fixtures.run("", "prove", "--profile", "ieee754", "--from", "double", "--to", "bfloat16", "--rounding", "rn",
                "--rtl", RTL.resolve("double_to_bf16.sv").toString(), "--top", "double_to_bf16", "--out", temp.resolve("b").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference for all 2^64 inputs (both engines)"), r.out());
    }

    /** An integer source: int64_to_half.sv (written by hand) against ascend-c's nosat state, all 2^64 inputs. */
    @Test
    void int64ToHalfIsProvenForEveryInt64() {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Fixtures.Run r = Fixtures.run("", "prove", "--from", "int64", "--to", "half", "--rounding", "rn", "--saturation", "nosat",
                "--ctrl", "60=0,48=1", "--rtl", RTL.resolve("int64_to_half.sv").toString(), "--top", "int64_to_half",
                "--out", temp.resolve("i").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference for all 2^64 inputs (both engines)"), r.out());
        Fixtures.Run saturating = Fixtures.run("", "prove", "--from", "int64", "--to", "half", "--rounding", "rn", "--counterexamples",
                "1", "--rtl", RTL.resolve("int64_to_half.sv").toString(), "--top", "int64_to_half", "--out", temp.resolve("s").toString());
        assertEquals(1, saturating.exit(), "at power-on CTRL the case saturates, which the design does not: " + saturating.out());
    }

    /**
     * A non-IEEE destination: float_to_hif8.sv, written by hand from Ascend C's pseudo-code, proven for all 2^32
     * floats against the model of HiFloat8's steps, in both saturation states.
     */
    @ParameterizedTest(name = "float->hifloat8 rna {0}")
    @CsvSource({"nosat, 0", "sat, 1"})
    void floatToHifloat8IsProvenForEveryFloat(String state, int saturating) {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Fixtures.Run r = Fixtures.run("", "prove", "--from", "float", "--to", "hifloat8", "--rounding", "rna", "--saturation", state,
                "--ctrl", "60=0,48=1", "--rtl", RTL.resolve("float_to_hif8.sv").toString(), "--top", "float_to_hif8",
                "--set", "saturating=" + saturating, "--out", temp.resolve(state).toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference for all 2^32 inputs (both engines)"), r.out());
    }

    /** HiFloat8's planted bug: a negative underflow that keeps its sign gives 0x80, HiFloat8's NaN, and certify fails it. */
    @Test
    void aSignedZeroInHifloat8IsRefutedAsANaN() throws IOException {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Path out = temp.resolve("z");
        Fixtures.Run r = Fixtures.run("", "prove", "--from", "float", "--to", "hifloat8", "--rounding", "rna", "--saturation", "nosat",
                "--ctrl", "60=0,48=1", "--rtl", RTL.resolve("float_to_hif8.sv").toString(), "--top", "float_to_hif8",
                "--set", "saturating=0", "--define", "PLANTED_SIGNED_ZERO", "--counterexamples", "1", "--out", out.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("REFUTED: the design differs from the reference (both engines)"), r.out());
        assertTrue(r.out().contains("expected 0x00 (0.0), actual 0x80 (nan)"), r.out());
        assertTrue(Files.readString(out.resolve("report/conformance.json")).contains("\"failed\" : 1"));
    }

    /**
     * cvc5 as a third engine, on the miter as Yosys writes it in SMT-LIB: double->bfloat16 proven by all three
     * (about 25 s); an unknown solver is a usage error.
     */
    @Test
    @Tag("extended") // a third engine beside the two every proof runs
    void anSmtSolverIsAThirdEngineThatMustAgree() {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        assumeTrue(installed("cvc5"), "cvc5 is not installed (apt-get install cvc5; .ci/run installs it)");
        Fixtures.Run proven = Fixtures.run("", "prove", "--profile", "ieee754", "--from", "double", "--to", "bfloat16", "--rounding", "rn",
                "--rtl", RTL.resolve("double_to_bf16.sv").toString(), "--top", "double_to_bf16", "--smt", "cvc5",
                "--out", temp.resolve("b").toString());
        assertEquals(0, proven.exit(), proven.out() + proven.err());
        assertTrue(proven.out().contains("PROVEN: equal to the reference for all 2^64 inputs (all 3 engines)"), proven.out());
        assertTrue(proven.out().lines().anyMatch(l -> l.startsWith("engine   cvc5") && l.endsWith("unsat")), proven.out());
        Fixtures.Run unknown = Fixtures.run("", "prove", "--from", "float", "--to", "half", "--rounding", "rn", "--rtl",
                RTL.resolve("convert_unit.sv").toString(), "--top", "convert_unit", "--smt", "yices");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("--smt yices: not one of cvc5"), unknown.err());
    }

    static boolean installed(String command) {
        try {
            return new ProcessBuilder(command, "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * The model's two generations are two derivations of one function: each case's steps model, written by
     * convcert model, proven equal to its datapath model (prove's default for these cases) by both engines.
     */
    @ParameterizedTest(name = "{1}->{2} {3}")
    @Tag("extended") // ReferenceModelTest checks both generations against the reference in every tier
    @CsvSource({"ieee754, float, fp8_e4m3fn, rn", "ieee754, half, fp8_e4m3fn, rna"})
    void theStepsModelIsProvenEqualToTheDatapathModel(String profile, String from, String to, String rounding) {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Path steps = temp.resolve("steps.sv");
        Fixtures.Run model = Fixtures.run("", "model", "--profile", profile, "--from", from, "--to", to, "--rounding", rounding,
                "--generation", "steps", "--module", "steps_model", "--out", steps.toString());
        assertEquals(0, model.exit(), model.out() + model.err());
        Fixtures.Run r = Fixtures.run("", "prove", "--profile", profile, "--from", from, "--to", to, "--rounding", rounding,
                "--generation", "datapath", "--rtl", steps.toString(), "--top", "steps_model", "--out", temp.resolve("p").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PROVEN: equal to the reference") && r.out().contains("(both engines)"), r.out());
    }

    @Test
    void thePlantedBugIsRefutedWithATieBrokenAwayFromZero() throws IOException {
        refutesThePlantedBug("bfloat16", 0);
    }

    @Tag("extended") // the same design path per format: about 20 s each
    @ParameterizedTest
    @CsvSource({"fp8_e4m3fn, 1", "fp8_e5m2, 2"})
    void thePlantedBugIsRefutedInEachFp8Format(String format, int select) throws IOException {
        refutesThePlantedBug(format, select);
    }

    private void refutesThePlantedBug(String format, int select) throws IOException {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Path out = temp.resolve(format);
        List<String> a = args(format, select, "rn", 0, "nosat", out);
        a.addAll(List.of("--define", "PLANTED_TIES_AWAY"));
        Fixtures.Run r = Fixtures.run("", a.toArray(String[]::new));
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("REFUTED: the design differs from the reference (both engines)"), r.out());
        String input = Files.readAllLines(out.resolve("counterexample.in.memh")).getFirst().strip();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("actual (0x[0-9A-F]+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        // the design's result is the tie broken away from zero: IEEE 754's roundTiesToAway, where rn gives the other
        Fixtures.Run away = Fixtures.run("", "convert", "--profile", "ieee754", "--from", "float", "--to", format,
                "--rounding", "rna", "0x" + input);
        Fixtures.Run even = Fixtures.run("", "convert", "--profile", "ieee754", "--from", "float", "--to", format,
                "--rounding", "rn", "0x" + input);
        assertEquals(m.group(1), away.out().strip(), r.out());
        assertTrue(!even.out().strip().equals(m.group(1)), r.out());
        // the finding through certify's path: the mismatch, its diagnosis and the reports
        String report = Files.readString(out.resolve("report/conformance.json"));
        // eight counterexamples tell ties-away from ties-up, which one tie alone cannot
        assertTrue(report.contains("ties-away") && !report.contains("ties-up") && report.contains("\"failed\" : 1"), report);
        assertEquals(8, Files.readAllLines(out.resolve("counterexample.in.memh")).size());
        assertTrue(Files.isRegularFile(out.resolve("report/conformance.html")) && Files.isDirectory(out.resolve("report/junit")));
        assertTrue(Files.readString(out.resolve("proof.json")).contains("\"REFUTED\""));
    }

    /**
     * NaNs are judged as certify judges them: a design that gives every NaN as 0x7FC0 is proven under
     * nan-comparison=any, and refuted, with a NaN input, when NaN bits are compared (exact).
     */
    @Test
    void anotherNaNIsProvenUnderAnyAndRefutedUnderExact() {
        assumeTrue(yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        List<String> a = args("bfloat16", 0, "rn", 0, "nosat", temp.resolve("any"));
        a.addAll(List.of("--define", "PLANTED_CANONICAL_NAN"));
        Fixtures.Run any = Fixtures.run("", a.toArray(String[]::new));
        assertEquals(0, any.exit(), any.out() + any.err());
        List<String> b = args("bfloat16", 0, "rn", 0, "nosat", temp.resolve("exact"));
        b.addAll(List.of("--define", "PLANTED_CANONICAL_NAN", "--decision", "nan-comparison=exact"));
        Fixtures.Run exact = Fixtures.run("", b.toArray(String[]::new));
        assertEquals(1, exact.exit(), exact.out() + exact.err());
        assertTrue(exact.out().contains("REFUTED") && exact.out().contains("(nan): expected 0x"), exact.out());
    }

    @Test
    void aMissingFileOrABadPortIsAUsageError() {
        Fixtures.Run missing = Fixtures.run("", "prove", "--from", "float", "--to", "half", "--rounding", "rn", "--rtl",
                temp.resolve("none.sv").toString(), "--top", "x");
        assertEquals(2, missing.exit(), missing.out() + missing.err());
        assertTrue(missing.err().contains("none.sv: no such file"), missing.err());
        Fixtures.Run port = Fixtures.run("", "prove", "--from", "float", "--to", "half", "--rounding", "rn", "--rtl",
                RTL.resolve("convert_unit.sv").toString(), "--top", "convert_unit", "--set", "dst=x");
        assertEquals(2, port.exit());
        assertTrue(port.err().contains("--set 'dst=x': the value is not a number"), port.err());
        Fixtures.Run none = Fixtures.run("", "prove", "--from", "float", "--to", "half", "--rounding", "rn", "--rtl",
                RTL.resolve("convert_unit.sv").toString(), "--top", "convert_unit", "--counterexamples", "0");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("--counterexamples 0: at least 1"), none.err());
    }
}
