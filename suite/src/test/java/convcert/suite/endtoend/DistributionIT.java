package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After `mvn package`: the distribution (suite/target/convcert-VERSION/) runs from a directory
 * outside the checkout through a symbolic link on PATH, certifies with its own tables and golden
 * vectors, and writes its reports where it runs; the checkout's launcher works through a link too.
 */
class DistributionIT {

    static final Path DIST = Path.of(System.getProperty("convcert.dist"));
    static final Path HOME = Path.of(System.getProperty("convcert.home"));

    @TempDir
    Path temp;

    record Result(int exit, String output) { }

    private Result run(Path bin, String... args) throws IOException, InterruptedException {
        Path work = Files.createDirectories(temp.resolve("work"));
        // through a shell, so that PATH (with the link first) finds convcert as a user's shell would
        List<String> command = new java.util.ArrayList<>(List.of("bash", "-c", "convcert \"$@\"", "convcert"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), output);
    }

    private Path linkTo(Path launcher, String name) throws IOException {
        Path bin = Files.createDirectories(temp.resolve(name));
        Files.createSymbolicLink(bin.resolve("convcert"), launcher);
        return bin;
    }

    @Test
    void theDistributionRunsFromAnywhereThroughALink() throws Exception {
        assertTrue(Files.isExecutable(DIST.resolve("bin/convcert")), "no distribution at " + DIST + "; run mvn package");
        Path bin = linkTo(DIST.resolve("bin/convcert"), "dist-bin");
        Result r = run(bin, "certify", "--adapter", "jdk", "--pair", "float:half");
        assertEquals(0, r.exit(), r.output());
        assertTrue(Files.isRegularFile(temp.resolve("work/reports/jdk/conformance.json")),
                "the report lies where the command ran");
        assertTrue(r.output().contains("PASS: 1 cases"), r.output());
        Result tables = run(bin, "tables", "check", "--profile", "ocp-mx");
        assertEquals(0, tables.exit(), tables.output());
    }

    /** A device named by a relative path runs from the folder convcert was started in, as a user's CI step expects. */
    @Test
    void aRelativeDeviceCommandRunsWhereConvcertRuns() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        Process cc = new ProcessBuilder("cc", "-O2", "-o", "dut", HOME.resolve("suite/devices/example-c/dut.c").toString(), "-lm")
                .directory(work.toFile()).inheritIO().start();
        assertEquals(0, cc.waitFor(), "cc builds the example C device");
        Result r = run(linkTo(DIST.resolve("bin/convcert"), "dist-bin"), "certify", "--adapter", "process:cmd=./dut",
                "--pair", "float:half");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("PASS"), r.output());
    }

    /** A user's adapter, compiled against the distribution's SPI jar alone, certified by the distribution. */
    @Test
    void anAdapterBuiltAgainstTheShippedSpiJarIsCertified() throws Exception {
        Path spi;
        try (var jars = Files.list(DIST.resolve("lib"))) {
            spi = jars.filter(j -> j.getFileName().toString().matches("convcert-spi-.*\\.jar")).findFirst().orElseThrow();
        }
        Path jar = AdapterPathTest.exampleAdapterJar(spi, temp.resolve("adapter"));
        Result r = run(linkTo(DIST.resolve("bin/convcert"), "dist-bin"), "certify", "--adapter-path", jar.toString(),
                "--adapter", "example-half", "--pair", "float:half");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("PASS: 1 cases"), r.output());
    }

    @Test
    void theCheckoutsLauncherRunsThroughALink() throws Exception {
        Path bin = linkTo(HOME.resolve("convcert"), "checkout-bin");
        Result r = run(bin, "--version");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("convcert"), r.output());
    }

    /** The tarball carries every document README links, and an installed convcert names its commit. */
    @Test
    void theDistributionHasItsDocumentsAndItsCommit() throws Exception {
        for (String doc : List.of("README.md", "ARCHITECTURE.md", "docs/ci/README.md", "reports/README.md",
                "generator/COVERAGE.md", "spi/README.md", "suite/ADAPTERS.md", "suite/python/README.md",
                "vectors/README.md", "spec-tables/README.md", "docs/performance.md")) {
            assertTrue(Files.isRegularFile(DIST.resolve(doc)), "the distribution lacks " + doc);
        }
        Result r = run(linkTo(DIST.resolve("bin/convcert"), "dist-bin"), "--version");
        assertEquals(0, r.exit(), r.output());
        // the first run of a fresh distribution may first say that it makes the JVM's class cache (bin/convcert-aot)
        assertTrue(r.output().matches("(?s)(convcert: making the JVM's class cache[^\n]*\n)?convcert " + java.util.regex.Pattern.quote(convcert.suite.model.Provenance.VERSION)
                + " \\(commit [0-9a-f]{40}\\).*"), r.output());
    }

    /**
     * The Python package ships in the distribution (suite/python: convcert, convcert_device, the protocol and the
     * examples, no build residue) and, put on PYTHONPATH, finds the distribution's own convcert: no CONVCERT_HOME,
     * no convcert on PATH.
     */
    @Test
    void theDistributionsPythonPackageServesItsOwnReference() throws Exception {
        Path python = DIST.resolve("suite/python");
        for (String file : List.of("pyproject.toml", "ORACLE.md", "convcert/__init__.py", "convcert/oracle.py",
                "convcert_device/device.py", "examples/test_float_to_bfloat16.py")) {
            assertTrue(Files.isRegularFile(python.resolve(file)), "the distribution lacks suite/python/" + file);
        }
        try (var files = Files.walk(python)) {
            assertEquals(List.of(), files.map(python::relativize).map(Path::toString)
                    .filter(f -> f.contains("egg-info") || f.contains("__pycache__") || f.startsWith("build")).toList());
        }
        ProcessBuilder pb = new ProcessBuilder("python3", "-c", "import numpy as np, convcert; print(convcert.convert("
                + "np.float32([1.0, 500.0]), 'fp8_e4m3fn', profile='ieee754', rounding='rn').tolist())")
                .directory(Files.createDirectories(temp.resolve("work")).toFile()).redirectErrorStream(true);
        pb.environment().put("PYTHONPATH", python.toString());
        pb.environment().remove("CONVCERT_HOME");
        pb.environment().remove("CONVCERT_COMMAND");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertEquals("[56, 127]", output.strip());
    }
}
