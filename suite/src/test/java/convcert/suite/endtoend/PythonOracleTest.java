package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python package convcert (suite/python/convcert): numpy arrays through `convcert serve` give what
 * the reference in this JVM gives, for every conversion of every profile (its first rounding mode and
 * form, lanes included), in each width; a refused request is a one-line ConvcertError; a server that dies
 * is an error, never a result.
 */
class PythonOracleTest {

    @TempDir
    Path temp;

    /** A Python client of this JVM's classes: the package from the checkout, the server through CONVCERT_COMMAND. */
    private Fixtures.Run python(String script) throws Exception {
        Path file = temp.resolve("client.py");
        Files.writeString(file, "import sys\nsys.path.insert(0, %s)\n".formatted(quoted(Fixtures.HOME.resolve("suite/python")))
                + script);
        return python3(List.of(file.toString()));
    }

    private Fixtures.Run python3(List<String> args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of("python3"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(temp.toFile());
        pb.environment().put("PYTHONPATH", Fixtures.HOME.resolve("suite/python").toString());
        pb.environment().put("CONVCERT_COMMAND", String.join(" ", quoted(java), "-cp", quoted(System.getProperty("java.class.path")),
                quoted("-Dconvcert.home=" + Fixtures.HOME), "convcert.suite.Main", "serve"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Fixtures.Run(p.exitValue(), out, "");
    }

    private static String quoted(Object text) {
        return "'" + text.toString().replace("'", "'\\''") + "'";
    }

    private static String pyQuoted(Object text) {
        return "'" + text.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Test
    void everyConversionOfEveryProfileGivesTheReferencesBits() throws Exception {
        SplittableRandom draws = new SplittableRandom(40);
        StringBuilder plan = new StringBuilder();
        List<long[]> expected = new ArrayList<>();
        List<String> cases = new ArrayList<>();
        try (Stream<Path> profiles = Files.list(Fixtures.HOME.resolve("spec-tables"))) {
            for (Path dir : profiles.filter(d -> Files.isRegularFile(d.resolve("formats.csv"))).sorted().toList()) {
                Reference reference = Reference.of(SpecTables.load(dir));
                for (Conversion c : reference.tables().conversions()) {
                    Rounding mode = c.modes().iterator().next();
                    Form form = c.forms(mode).iterator().next();
                    Case spec = reference.resolve(c, mode, form, reference.ctrl((String) null));
                    Converter converter = reference.converter(spec);
                    int n = 64;
                    long[] in = new long[n];
                    long[] lanes = new long[n];
                    long[] random = new long[n]; // beside a scale: gfx950's rs
                    long[] out = new long[n];
                    var operands = converter.operands();
                    for (int i = 0; i < n; i++) {
                        in[i] = draws.nextLong() & c.from().mask();
                        if (operands.scale() != null) {
                            lanes[i] = operands.scale().min() + draws.nextLong(operands.scale().max() - operands.scale().min() + 1);
                            random[i] = draws.nextLong() & ((1L << operands.randomBits()) - 1);
                        } else if (operands.randomBits() > 0) {
                            lanes[i] = draws.nextLong() & ((1L << operands.randomBits()) - 1);
                        }
                        long operand = operands.operand(in[i], operands.scale() != null ? operands.scale().code(lanes[i]) : lanes[i]);
                        out[i] = converter.apply(operands.scale() != null ? operands.withRandom(operand, random[i]) : operand);
                    }
                    String laneList = operands.laneBits() == 0 ? "None" : operands.scale() != null && operands.randomBits() > 0
                            ? "(" + signedList(lanes) + ", " + signedList(random) + ")" : signedList(lanes);
                    plan.append("check(%s, %s, %s, %s, %s, %s, %s)\n".formatted(pyQuoted(dir.getFileName()), pyQuoted(c.from().name()),
                            pyQuoted(c.to().name()), pyQuoted(mode.suffix()), pyQuoted(form.tableName()), hexList(in),
                            laneList));
                    expected.add(out);
                    cases.add(dir.getFileName() + " " + spec.describe());
                }
            }
        }
        Fixtures.Run run = python("""
                import numpy as np, convcert
                WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
                def check(profile, source, to, rounding, saturation, inputs, lanes):
                    info = convcert.describe(to, source, profile=profile, rounding=rounding, saturation=saturation)
                    x = np.array(inputs, dtype=np.uint64).astype(WIDTH[int(info["in"])])
                    y = convcert.convert(x, to, source=source, profile=profile, rounding=rounding, saturation=saturation,
                                         lanes=lanes, bits=True)
                    assert y.dtype == WIDTH[int(info["out"])], (info, y.dtype)
                    print(" ".join("%x" % v for v in y.tolist()))
                """ + plan);
        assertEquals(0, run.exit(), run.out());
        List<String> lines = run.out().lines().toList();
        assertEquals(expected.size(), lines.size(), run.out());
        for (int k = 0; k < lines.size(); k++) {
            String[] got = lines.get(k).split(" ");
            for (int i = 0; i < got.length; i++) {
                assertEquals(Long.toHexString(expected.get(k)[i]), got[i], cases.get(k) + ", element " + i);
            }
        }
        assertTrue(expected.size() > 300, "conversions checked: " + expected.size());
    }

    /** Bit patterns as Python integers: unsigned. */
    private static String hexList(long[] values) {
        StringBuilder b = new StringBuilder("[");
        for (long v : values) {
            b.append("0x").append(Long.toHexString(v)).append(',');
        }
        return b.append(']').toString();
    }

    /** Lane values (a scale's K may be negative). */
    private static String signedList(long[] values) {
        StringBuilder b = new StringBuilder("[");
        for (long v : values) {
            b.append(v).append(',');
        }
        return b.append(']').toString();
    }

    @Test
    void numpyValuesComeBackAsNumpyValues() throws Exception {
        Fixtures.Run run = python("""
                import numpy as np, convcert
                print(convcert.convert(np.float32([1.0, 65520.0, -0.0]), "half", profile="cuda", rounding="rn").tolist())
                print(convcert.convert(np.float32([1.0, 448.0, 500.0]), "e4m3", profile="ocp-mx", rounding="rn",
                                       saturation="sat").tolist())
                print(convcert.convert(np.array([2.5, -3.5]), "int32", profile="riscv", rounding="rn").tolist())
                """);
        assertEquals(0, run.exit(), run.out());
        assertEquals(List.of("[1.0, inf, -0.0]", "[56, 126, 126]", "[2, -4]"), run.out().lines().toList());
    }

    @Test
    void aRefusedRequestIsOneLineAndTheNextIsServed() throws Exception {
        Fixtures.Run run = python("""
                import numpy as np, convcert
                for call in (lambda: convcert.convert(np.float32([1]), "bf16", profile="ocp-mx"),
                             lambda: convcert.convert(np.uint8([0x1F]), "float", source="e2m1", profile="ocp-mx"),
                             lambda: convcert.convert(np.float32([1]), "half", profile="cudaa"),
                             lambda: convcert.convert(np.float32([1]), "half"),
                             lambda: convcert.convert(np.float32([1]), "e2m1", profile="gfx950", rounding="rs", lanes=[0])):
                    try:
                        call()
                        print("no error")
                    except convcert.ConvcertError as e:
                        print(str(e).split(";")[0])
                print(convcert.convert(np.float32([2.0]), "e5m2", profile="ocp-mx", rounding="rn", bits=True).tolist())
                """);
        assertEquals(0, run.exit(), run.out());
        assertEquals(List.of("unknown type 'bf16'",
                "element 0: 0x1f does not fit in fp4_e2m1 (4 bits)",
                "no profile 'cudaa'",
                "give profile= (e.g. 'ieee754', 'ocp-mx', 'cuda') or tables= (a folder of spec tables), not both or neither: "
                        + "the answer depends on the text",
                "float->fp4_e2m1 rs sat [CTRL  -> sat] takes a scale and random bits beside each value (scale:-128:127+random:22): give "
                        + "lanes=(K, RANDOM)", "[64]"), run.out().lines().toList());
    }

    @Test
    void aServerThatDiesIsAnErrorNotAResult() throws Exception {
        Fixtures.Run run = python("""
                import os, signal, numpy as np, convcert
                oracle = convcert.Oracle()
                print(convcert.convert(np.float32([1.0]), "half", profile="cuda", rounding="rn", oracle=oracle).tolist())
                os.kill(oracle._process.pid, signal.SIGKILL)
                oracle._process.wait()
                try:
                    convcert.convert(np.float32([1.0]), "half", profile="cuda", rounding="rz", oracle=oracle)
                    print("no error")
                except convcert.ConvcertError as e:
                    print(str(e)[:32])
                print(convcert.convert(np.float32([3.0]), "half", profile="cuda", rounding="rn", oracle=oracle).tolist())
                """);
        assertEquals(0, run.exit(), run.out());
        assertEquals(List.of("[1.0]", "convcert serve ended (exit -9)", "[3.0]"), run.out().lines().toList());
    }

    /**
     * suite/python/examples: the pytest example passes with its round-to-nearest-even converter and fails,
     * naming the first input, once the converter truncates (run as a script where pytest is missing).
     */
    @Test
    void thePytestExampleCertifiesANumpyConverterAndCatchesTruncation() throws Exception {
        Path example = Fixtures.HOME.resolve("suite/python/examples/test_float_to_bfloat16.py");
        String source = Files.readString(example);
        String rounding = "rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16";
        assertTrue(source.contains(rounding), "the example's rounding line");
        Path broken = temp.resolve("test_truncating.py");
        Files.writeString(broken, source.replace(rounding, "rounded = bits >> 16"));
        boolean pytest = python3(List.of("-c", "import pytest")).exit() == 0;
        for (Path test : List.of(example, broken)) {
            Fixtures.Run run = pytest ? python3(List.of("-m", "pytest", "-q", "-p", "no:cacheprovider", test.toString()))
                    : python3(List.of("-c", "import runpy; m = runpy.run_path(%s); m['test_float_to_bfloat16_matches_the_reference']()"
                            .formatted(pyQuoted(test))));
            if (test == example) {
                assertEquals(0, run.exit(), run.out());
            } else {
                assertTrue(run.exit() != 0 && run.out().contains("differ; first: input 0x"), run.out());
            }
        }
    }
}
