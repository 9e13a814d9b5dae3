package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Nothing the implementation under test does ends the run green or takes the judge down: a native
 * library misbehaving in its host process, a Java adapter ending the JVM, hanging or never closing,
 * a device outliving convcert, a broken provider jar. Each row: the fault, the exit code, what is said.
 */
class IsolationTest {

    @TempDir
    Path temp;

    /**
     * The example C device as a shared library whose convcert_convert does fault first (C statements;
     * real_convert is the example's own conversion).
     */
    private Path library(String fault) throws Exception {
        Path source = temp.resolve("faulty.c");
        Files.writeString(source, """
                #define CONVCERT_LIBRARY
                #define convcert_convert real_convert
                #include "%s"
                #undef convcert_convert
                #include <signal.h>
                int convcert_convert(const char *from, const char *to, const char *rounding, const char *state,
                                     const char *form, const char *ctrl, const void *in, void *out, uint64_t count) {
                    %s
                    return real_convert(from, to, rounding, state, form, ctrl, in, out, count);
                }
                """.formatted(Fixtures.HOME.resolve("suite/devices/example-c/dut.c"), fault));
        Path lib = temp.resolve("libfaulty.so");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-shared", "-fPIC", "-I",
                Fixtures.HOME.resolve("suite/native").toString(), "-o", lib.toString(), source.toString(), "-lm")
                .redirectErrorStream(true).start();
        String log = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0, log);
        return lib;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        writes no output                | return 0;                                    | 1 | FAIL: 1 cases with mismatches
        calls exit(0)                   | exit(0);                                     | 3 | the process exited with code 0
        calls _exit(0)                  | _exit(0);                                    | 3 | the process exited with code 0
        dereferences NULL               | *(volatile int *)0 = 1;                      | 3 | the process exited with code 139 (killed by signal 11, SIGSEGV)
        aborts                          | abort();                                     | 3 | the process exited with code 134
        hangs                           | for (;;) pause();                            | 3 | no answer within 1500 ms
        writes past its outputs         | real_convert(from, to, rounding, state, form, ctrl, in, out, count); memset((char *)out + 2 * count, 0, 8); return 0; | 3 | the library wrote at offset
        writes 8 bytes past the guard   | real_convert(from, to, rounding, state, form, ctrl, in, out, count); ((char *)out)[2 * count + 72] ^= 1; return 0; | 3 | the library wrote at offset
        writes after both slots         | real_convert(from, to, rounding, state, form, ctrl, in, out, count); ((char *)out)[24 * 262144 + 128 + 100] ^= 1; return 0; | 3 | (lane values, byte 100)
        complements the poison          | for (uint64_t i = 0; i < 2 * count; i++) ((unsigned char *)out)[i] ^= 0xFF; return 0; | 1 | FAIL: 1 cases with mismatches
        prints an answer of its own     | printf("OK 1\\n"); fflush(stdout);           | 0 | PASS: 1 cases
        """)
    void aNativeLibraryIsJudgedFromOutsideItsProcess(String fault, String code, int exit, String message) throws Exception {
        Path lib = library(code);
        Path out = temp.resolve("out");
        long start = System.nanoTime();
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "native:lib=" + lib, "--timeout-ms", "1500",
                "--pair", "float:half", "--only", "float->half/rn-nosat");
        RobustnessTest.outcome(r, out).expect(exit, message);
        assertTrue(Files.isRegularFile(out.resolve("conformance.json")), "a report is written");
        assertTrue((System.nanoTime() - start) / 1e9 < 60, "bounded by the timeout");
        try (Stream<Path> crashLogs = Files.list(Path.of(""))) {
            assertEquals(List.of(), crashLogs.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList());
        }
    }

    @Test
    void anUnwrittenOutputIsAMismatchNotTheLastCallsAnswer() throws Exception {
        // Right for the primary variant, silent for the others: the buffer would still hold the right answers.
        Path lib = library("static int calls; if (calls++ > 0) return 0;");
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter", "native:lib=" + lib, "--pair", "float:half",
                "--only", "float->half/rn-nosat*");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        assertTrue(report.get("summary").get("failed").asInt() > 0, report.get("summary").toString());
    }

    // ---- Java adapters, in process ------------------------------------------------------------------

    /**
     * A Java adapter for float->half nosat (by Float.floatToFloat16: right for rn only), as a jar on --adapter-path: 'how' picks its misbehaviour
     * (exit, halt, close-hangs, slow-first: its first call outlasts the timeout), marker a file it
     * writes when called while a call is still running.
     */
    private Path javaAdapter() throws Exception {
        Path src = Files.createDirectories(temp.resolve("adapter-src/faulty"));
        Files.writeString(src.resolve("Faulty.java"), """
                package faulty;
                import convcert.spi.*;
                import java.nio.file.*;
                import java.util.*;
                import java.util.concurrent.atomic.AtomicBoolean;
                public final class Faulty implements ConverterAdapter {
                    public static final class Provider implements AdapterProvider {
                        public String name() { return "faulty"; }
                        public String description() { return "misbehaves on purpose"; }
                        public ConverterAdapter create(AdapterContext c, Map<String, String> o) { return new Faulty(o); }
                    }
                    private static int made;
                    private final Map<String, String> options;
                    private final int instance = ++made;
                    private final AtomicBoolean busy = new AtomicBoolean();
                    private int calls;
                    Faulty(Map<String, String> options) { this.options = options; }
                    public List<Capability> capabilities() { return List.of(new Capability("float", "half", "*", "nosat")); }
                    public boolean programsSaturation() { return false; }
                    public void convert(CaseKey c, long[] in, long[] out, int n) throws AdapterException {
                        if (!busy.compareAndSet(false, true)) {
                            try { Files.writeString(Path.of(options.get("marker")), "called while busy"); }
                            catch (Exception e) { throw new AdapterException(e.toString()); }
                        }
                        try {
                            String how = options.getOrDefault("how", "");
                            if (how.equals("exit")) { System.exit(0); }
                            if (how.equals("halt")) { Runtime.getRuntime().halt(0); }
                            if (how.equals("slow-first") && instance == 1 && calls++ == 0) {
                                try { Thread.sleep(4000); } catch (InterruptedException e) { }
                            }
                            for (int i = 0; i < n; i++) {
                                out[i] = Float.floatToFloat16(Float.intBitsToFloat((int) in[i])) & 0xFFFF;
                            }
                        } finally {
                            busy.set(false);
                        }
                    }
                    public void close() {
                        if (options.getOrDefault("how", "").equals("close-hangs")) {
                            for (;;) { try { Thread.sleep(1000); } catch (InterruptedException e) { } }
                        }
                    }
                }
                """);
        Path services = Files.createDirectories(temp.resolve("adapter-src/META-INF/services"));
        Files.writeString(services.resolve("convcert.spi.AdapterProvider"), "faulty.Faulty$Provider\n");
        Path classes = Files.createDirectories(temp.resolve("adapter-classes"));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "21", "-d", classes.toString(),
                "-cp", AdapterPathTest.spiOnly().toString(), src.resolve("Faulty.java").toString());
        assertEquals(0, rc);
        return jar(temp.resolve("faulty.jar"), classes, temp.resolve("adapter-src"));
    }

    /** A jar of the files under roots (their sources left out). */
    private static Path jar(Path jar, Path... roots) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path root : roots) {
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path f : files.filter(p -> Files.isRegularFile(p) && !p.toString().endsWith(".java")).toList()) {
                        out.putNextEntry(new JarEntry(root.relativize(f).toString()));
                        out.write(Files.readAllBytes(f));
                        out.closeEntry();
                    }
                }
            }
        }
        return jar;
    }

    /**
     * The command line both launchers (./convcert, bin/convcert) end in: convcert-java running this
     * build's classes, the JVM as its child.
     */
    static List<String> launcherCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(Fixtures.HOME.resolve("suite/src/dist/bin/convcert-java").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xss4m",
                "--enable-native-access=ALL-UNNAMED", "-Dconvcert.home=" + Fixtures.HOME, "-cp",
                System.getProperty("java.class.path"), "convcert.suite.Main"));
        command.addAll(List.of(args));
        return command;
    }

    /** convcert run through its launcher, as users and CI run it: exit code and everything printed. */
    private Fixtures.Run launcher(String... args) throws Exception {
        Process p = new ProcessBuilder(launcherCommand(args)).directory(temp.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        return new Fixtures.Run(p.exitValue(), text, "");
    }

    @ParameterizedTest(name = "a Java adapter calling {0}(0)")
    @CsvSource({"exit", "halt"})
    void aJavaAdapterEndingTheJvmIsNeverAPass(String how) throws Exception {
        Path jar = javaAdapter();
        Fixtures.Run r = launcher("certify", "--adapter-path", jar.toString(), "--adapter", "faulty:how=" + how,
                "--pair", "float:half", "--out", temp.resolve("out").toString());
        assertEquals(4, r.exit(), r.out());
        assertTrue(r.out().contains("before convcert reached a verdict"), r.out());
    }

    @Test
    void aTimedOutInstanceIsAbandonedAndNeverCalledAgain() throws Exception {
        Path jar = javaAdapter();
        Path marker = temp.resolve("called-while-busy");
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter-path", jar.toString(), "--adapter",
                "faulty:how=slow-first,marker=" + marker, "--timeout-ms", "1000", "--pair", "float:half");
        assertEquals(3, r.exit(), r.out() + r.err());
        Thread.sleep(4000); // the abandoned call ends
        assertFalse(Files.exists(marker), "an instance was called while its timed-out call still ran");
        assertTrue(Fixtures.report(out).get("notes").toString().contains("was abandoned"),
                Fixtures.report(out).get("notes").toString());
    }

    @Test
    void anAdapterWhoseCloseNeverReturnsEndsTheRunAnyway() throws Exception {
        Path jar = javaAdapter();
        Path out = temp.resolve("out");
        long start = System.nanoTime();
        Fixtures.Run r = Fixtures.certify(out, "--adapter-path", jar.toString(), "--adapter", "faulty:how=close-hangs",
                "--timeout-ms", "1000", "--pair", "float:half", "--only", "float->half/rn-*");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue((System.nanoTime() - start) / 1e9 < 60);
        assertTrue(Fixtures.report(out).get("notes").toString().contains("close() did not return"));
    }

    @Test
    void aBrokenProviderJarCostsOnlyItself() throws Exception {
        Path broken = temp.resolve("broken.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(broken))) {
            out.putNextEntry(new JarEntry("META-INF/services/convcert.spi.AdapterProvider"));
            out.write("no.such.Provider\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--adapter-path", broken.toString(), "--pair", "float:half");
        assertEquals(0, r.exit(), r.out() + r.err());
        Fixtures.Run list = Fixtures.run("", "certify", "--adapter-path", broken.toString(), "--list-adapters");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains("jdk") && list.out().contains("(broken)"), list.out());
    }

    // ---- devices that would outlive the run -----------------------------------------------------------

    private List<ProcessHandle> running(String marker) {
        return ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker))
                .orElse(false)).toList();
    }

    /**
     * convcert through its launcher on a device (marked by marker in its command line) that takes the first
     * batch and holds it, reading nothing; returned once the device holds it.
     */
    private Process holdingRun(String marker, Path out) throws Exception {
        Path dev = temp.resolve("hold.py");
        Path holding = temp.resolve("holding");
        Files.writeString(dev, """
                import sys, time
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float half rn nosat\\nREADY\\n"); sys.stdout.flush()
                sys.stdin.buffer.readline()
                open(sys.argv[2], "w").close()
                time.sleep(600)
                """);
        Process cli = new ProcessBuilder(launcherCommand("certify", "--adapter", "process:cmd=python3 " + dev + " " + marker
                + " " + holding, "--timeout-ms", "600000", "--pair", "float:half", "--out", out.toString()))
                .directory(temp.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(holding) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return cli;
    }

    /** A SIGKILL of convcert mid-run: its device dies with it, and the last run's PASS is no longer current. */
    @Test
    void aDeviceDiesWithConvcertEvenUnderSigkill() throws Exception {
        Path out = temp.resolve("out");
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit());
        String marker = "convcert-held-" + ProcessHandle.current().pid();
        Process cli = holdingRun(marker, out);
        assertFalse(running(marker).isEmpty(), "the device holds a batch");
        ProcessHandle java = cli.toHandle().descendants().filter(p -> p.info().command().orElse("").endsWith("java"))
                .findFirst().orElseThrow();
        new ProcessBuilder("kill", "-KILL", String.valueOf(java.pid())).start().waitFor();
        cli.waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(500);
        assertEquals(List.of(), running(marker).stream().map(ProcessHandle::pid).toList(), "the device outlived convcert");
        assertFalse(Files.exists(out.resolve("conformance.json")), "the killed run left the last run's report current");
        assertTrue(Files.isRegularFile(out.resolve("superseded/conformance.json")), "the last run's report is kept aside");
    }

    /**
     * Output that followed a case's answers, found when the next case begins (ProcessAdapter throws
     * LateOutput naming the case whose answer it read last): the earlier case's adapter failure, and the
     * next case runs again on the recovered adapter. An adapter in process plays the device deterministically.
     */
    @Test
    void outputAfterACasesAnswersIsThatCasesFailure() throws Exception {
        Path src = Files.createDirectories(temp.resolve("late-src/late"));
        Files.writeString(src.resolve("Late.java"), """
                package late;
                import convcert.spi.*;
                import java.util.*;
                public final class Late implements ConverterAdapter {
                    public static final class Provider implements AdapterProvider {
                        public String name() { return "late"; }
                        public String description() { return "sends bytes after float->half"; }
                        public ConverterAdapter create(AdapterContext c, Map<String, String> o) { return new Late(); }
                    }
                    private String last = "";
                    private boolean pending;
                    public List<Capability> capabilities() {
                        return List.of(new Capability("float", "half", "rn", "nosat"), new Capability("half", "float", "rn", "nosat"));
                    }
                    public boolean programsSaturation() { return false; }
                    public void recover() { pending = false; }
                    public void convert(CaseKey c, long[] in, long[] out, int n) throws AdapterException {
                        if (pending && !c.name().equals(last)) {
                            throw new convcert.suite.model.LateOutput(last, "5 bytes beyond the answer to " + last);
                        }
                        last = c.name();
                        pending = n == 0 && c.from().equals("float"); // 'sent' after the batch of 0
                        for (int i = 0; i < n; i++) {
                            out[i] = c.from().equals("float") ? Float.floatToFloat16(Float.intBitsToFloat((int) in[i])) & 0xFFFF
                                    : Float.floatToRawIntBits(Float.float16ToFloat((short) in[i])) & 0xFFFFFFFFL;
                        }
                    }
                }
                """);
        Path services = Files.createDirectories(temp.resolve("late-src/META-INF/services"));
        Files.writeString(services.resolve("convcert.spi.AdapterProvider"), "late.Late$Provider\n");
        Path classes = Files.createDirectories(temp.resolve("late-classes"));
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), src.resolve("Late.java").toString()));
        Path jar = jar(temp.resolve("late.jar"), classes, temp.resolve("late-src"));
        Path out = temp.resolve("out");
        Fixtures.Run r = Fixtures.certify(out, "--adapter-path", jar.toString(), "--adapter", "late", "--pair", "float:half",
                "--pair", "half:float", "--only", "*/rn-nosat");
        assertEquals(3, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        JsonNode late = Fixtures.find(report, "float->half/rn-nosat");
        assertEquals("ADAPTER_ERROR", late.get("status").asText(), late.toString());
        assertEquals("5 bytes beyond the answer to float->half/rn-nosat", late.get("message").asText());
        assertEquals("PASS", Fixtures.find(report, "half->float/rn-nosat").get("status").asText(), "run again");
    }

    /** A SIGKILL of the launcher (bin/convcert-java): the JVM it started notices, ends, and its device with it. */
    @Test
    void theRunEndsWhenItsLauncherIsKilled() throws Exception {
        String marker = "convcert-orphaned-" + ProcessHandle.current().pid();
        Process cli = holdingRun(marker, temp.resolve("out"));
        ProcessHandle java = cli.toHandle().descendants().filter(p -> p.info().command().orElse("").endsWith("java"))
                .findFirst().orElseThrow();
        new ProcessBuilder("kill", "-KILL", String.valueOf(cli.pid())).start().waitFor();
        java.onExit().get(30, TimeUnit.SECONDS);
        Thread.sleep(500);
        assertEquals(List.of(), running(marker).stream().map(ProcessHandle::pid).toList(), "the device outlived the launcher");
    }

    @Test
    void aGrandchildThatLeavesTheDevicesGroupDoesNotOutliveTheRun() throws Exception {
        String marker = "convcert-escaped-" + ProcessHandle.current().pid();
        Path dev = temp.resolve("escape.py");
        Files.writeString(dev, """
                import os, sys, struct
                sys.stdin.buffer.readline()
                if os.fork() == 0:
                    os.setsid()
                    os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", "%s"])
                sys.stdout.write("CAP float half rn nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1]); data = sys.stdin.buffer.read(4 * n)
                    sys.stdout.buffer.write(b"OK %%d\\n" %% n + bytes(2 * n)); sys.stdout.flush()
                """.formatted(marker));
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--adapter", "process:cmd=python3 " + dev,
                "--pair", "float:half", "--only", "float->half/rn-nosat");
        assertEquals(1, r.exit(), r.out() + r.err());
        Thread.sleep(500);
        assertEquals(List.of(), running(marker).stream().map(ProcessHandle::pid).toList(), "the grandchild outlived the run");
    }
}
