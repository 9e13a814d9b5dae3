package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import convcert.suite.Main;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the end-to-end tests share: the CLI run in process (its exit code and both streams), certify into a
 * folder, its report read back, the example C device built once, and comparisons of a re-run with a
 * committed report.
 */
final class Fixtures {

    private Fixtures() {
    }

    /** One CLI run: its exit code, standard output and standard error. */
    record Run(int exit, String out, String err) { }

    static Run run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            int exit = cli.execute(args);
            return new Run(exit, out.toString(), err.toString());
        } finally {
            System.setIn(saved);
        }
    }

    static final Path HOME = Path.of(System.getProperty("convcert.home"));
    static final Path DUT_SOURCE = HOME.resolve("suite/devices/example-c/dut.c");

    static Path dut; // the example C device and its shared-library build, made once for the suite's tests
    static Path library;

    static synchronized Path exampleDevice() throws Exception {
        if (dut == null) {
            Path build = java.nio.file.Files.createTempDirectory("convcert-dut");
            build.toFile().deleteOnExit();
            compile("gcc", "-O2", "-o", build.resolve("dut").toString(), DUT_SOURCE.toString(), "-lm");
            compile("gcc", "-O2", "-shared", "-fPIC", "-DCONVCERT_LIBRARY", "-I", HOME.resolve("suite/native").toString(), "-o",
                    build.resolve("libdut.so").toString(), DUT_SOURCE.toString(), "-lm");
            library = build.resolve("libdut.so");
            dut = build.resolve("dut");
        }
        return dut;
    }

    /** Runs a compiler (gcc, c++) with these arguments: it must succeed within a minute. */
    static void compile(String compiler, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(compiler));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, compiler + " failed: " + output);
    }

    static Run certify(Path out, String... args) {
        List<String> all = new ArrayList<>(List.of("certify", "--out", out.toString()));
        all.addAll(List.of(args));
        return run("", all.toArray(String[]::new));
    }

    static JsonNode report(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("conformance.json").toFile());
    }

    /** The one JUnit XML file of a report folder, checked against the schema CI readers use (JUnitXmlTest). */
    static String junitXml(Path report) throws IOException {
        try (var files = Files.list(report.resolve("junit"))) {
            Path xml = files.filter(f -> f.toString().endsWith(".xml")).findFirst().orElseThrow();
            try {
                JUnitXmlTest.validate(xml);
            } catch (org.xml.sax.SAXException e) {
                throw new AssertionError(xml + " is not valid JUnit XML: " + e.getMessage(), e);
            }
            return Files.readString(xml);
        }
    }

    /**
     * Every case of a committed report comes out of the re-run the same in these fields; a case the
     * profile gained since (rs, say) is one the device never declared: it must be not applicable.
     */
    static void sameCases(JsonNode committed, JsonNode now, List<String> fields) {
        java.util.Map<String, JsonNode> earlier = new java.util.HashMap<>();
        committed.get("cases").forEach(c -> earlier.put(c.get("name").asText(), c));
        int matched = 0;
        for (JsonNode b : now.get("cases")) {
            JsonNode a = earlier.get(b.get("name").asText());
            if (a == null) {
                assertEquals("NOT_APPLICABLE", b.get("status").asText(), "a case added since the report: " + b);
                continue;
            }
            matched++;
            for (String field : fields) {
                assertEquals(a.get(field), b.get(field), a.get("name") + " " + field);
            }
        }
        assertEquals(earlier.size(), matched, "every committed case is in the re-run");
    }

    /** A case without its times (its own and its diagnosis's), which differ from run to run. */
    static JsonNode untimed(JsonNode c) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) c).remove("millis");
        if (c.get("diagnosisData") instanceof com.fasterxml.jackson.databind.node.ObjectNode d) {
            d.remove("millis");
        }
        return c;
    }

    static JsonNode find(JsonNode report, String name) {
        for (JsonNode c : report.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no case " + name);
    }

    /** How many cases of a report whose names start with prefix passed (a state's variants, say). */
    static long passed(JsonNode report, String prefix) {
        long n = 0;
        for (JsonNode c : report.get("cases")) {
            n += c.get("name").asText().startsWith(prefix) && c.get("status").asText().equals("PASS") ? 1 : 0;
        }
        return n;
    }
}
