package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.cli.GenerateCommand;
import convcert.common.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** convcert generate: the three layouts agree, the manifest is right, errors and drift are reported. */
class GenerateCommandTest {

    record Run(int exit, String out, String err) { }

    static Run generate(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new GenerateCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExecutionExceptionHandler((ex, c, p) -> {
            c.getErr().println(ex.getMessage());
            return 2;
        });
        return new Run(cli.execute(args), out.toString(), err.toString());
    }

    @Test
    void layoutsAgreeAndTheManifestDescribesThem(@TempDir Path dir) throws Exception {
        Run r = generate("--pair", "float:half", "--pair", "hif8:fp16", "--level", "quick", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("float->half"), r.out());
        Manifest m = Manifest.readIn(dir);
        assertEquals(12 + 2, m.cases().size(), "float->half: 6 modes x (nosat, sat); hifloat8->half: rn x (nosat, sat)");
        for (Manifest.Entry e : m.cases()) {
            for (var f : e.files().values()) {
                byte[] bytes = Files.readAllBytes(dir.resolve(f.path()));
                assertEquals(f.sha256(), HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(bytes)), f.path());
            }
            List<String> csv = Files.readAllLines(dir.resolve(e.files().get(".csv").path()));
            List<String> inMemh = Files.readAllLines(dir.resolve(e.files().get(".in.memh").path()));
            List<String> outMemh = Files.readAllLines(dir.resolve(e.files().get(".expected.memh").path()));
            int inWidth = e.from().equals("float") ? 32 : 8;
            long[] inBin = GoldenSetTest.elements(dir.resolve(e.files().get(".in.bin").path()), inWidth);
            long[] outBin = GoldenSetTest.elements(dir.resolve(e.files().get(".expected.bin").path()), 16);
            assertEquals("input,expected,input_value,expected_value,coverage", csv.getFirst());
            assertEquals(e.count() + 1, csv.size());
            for (int i = 0; i < e.count(); i++) {
                String[] cells = csv.get(i + 1).split(",");
                assertEquals(Long.parseLong(cells[0].substring(2), 16), inBin[i], e.name() + " row " + i);
                assertEquals(Long.parseLong(cells[1].substring(2), 16), outBin[i], e.name() + " row " + i);
                assertEquals(cells[0].substring(2), inMemh.get(i));
                assertEquals(cells[1].substring(2), outMemh.get(i));
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".partial")), "no partial files left");
        }
        Manifest.Entry sat = m.cases().stream().filter(e -> e.name().endsWith("float-half/rn-sat")).findFirst().orElseThrow();
        assertEquals("_rn_sat", sat.suffix());
        assertEquals(0, sat.ctrl().get("60"));
    }

    @Test
    void aPairNamedTwiceIsGeneratedOnce(@TempDir Path dir) throws Exception {
        // Once raced: two threads wrote the same .partial file and one found it moved away.
        convcert.reference.Reference reference = convcert.TestProfile.reference();
        var half = reference.conversion("float", "half");
        Generator.Result r = new Generator(new Generator.Options(reference, List.of(half, half, half), Level.QUICK, 1,
                java.util.Set.of(VectorFormat.BIN), dir), Progress.silent()).run();
        assertEquals(12, r.entries().size(), "float->half: 6 modes x (nosat, sat), each once");
        assertEquals(12, Manifest.readIn(dir).cases().size());
    }

    @Test
    void checkReportsChangedFilesAndRows(@TempDir Path dir) throws Exception {
        assertEquals(0, generate("--pair", "float:fp8_e4m3fn", "--level", "quick", "--out", dir.toString()).exit());
        assertEquals(0, generate("--pair", "float:fp8_e4m3fn", "--level", "quick", "--out", dir.toString(), "--check").exit());
        Path bin = dir.resolve("ascend-c/float-fp8_e4m3fn/rn-nosat.expected.bin");
        byte[] bytes = Files.readAllBytes(bin);
        bytes[3] ^= 1;
        bytes[10] ^= 1;
        Files.write(bin, bytes);
        Run r = generate("--pair", "float:fp8_e4m3fn", "--level", "quick", "--out", dir.toString(), "--check");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("ascend-c/float-fp8_e4m3fn/rn-nosat.expected.bin: 2 of"), r.out());
    }

    @Test
    void badOptionsAreUsageErrors(@TempDir Path dir) {
        Run r = generate("--level", "huge", "--out", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown level 'huge'; levels: quick ci full"), r.err());
        r = generate("--pair", "float:int8", "--out", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("offers no conversion float -> int8"), r.err());
        r = generate("--format", "xml", "--out", dir.toString());
        assertTrue(r.err().contains("unknown format 'xml'"), r.err());
    }
}
