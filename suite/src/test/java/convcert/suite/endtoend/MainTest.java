package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.suite.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: results, explanations, and one-line errors with exit code 2. */
class MainTest {

    @Test
    void convertsArgumentsWithOrWithout0x() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "half", "--rounding", "ru", "--ctrl", "60=0",
                "3F001000", "0x3f800000", "0x7F800000");
        assertEquals(0, r.exit(), r.err());
        assertEquals("0x3801\n0x3C00\n0x7C00\n", r.out());
    }

    @Test
    void powerOnCtrlSaturatesGroupA() {
        // CTRL[60]=1, CTRL[48]=0 at power-on: float->half saturates whatever the form (Table 4).
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "half", "--rounding", "rn", "0x7F800000");
        assertEquals("0x7BFF\n", r.out());
    }

    @Test
    void readsStdinAndUsesAliases() {
        Fixtures.Run r = Fixtures.run("0x10  0x08\n 0x80\n", "convert", "--from", "hif8", "--to", "fp32");
        assertEquals(0, r.exit(), r.err());
        assertEquals("0x40000000\n0x3F800000\n0x7FC00000\n", r.out());
    }

    @Test
    void implicitFormFollowsTable1() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "int32", "--to", "half", "--saturation", "implicit", "0x000186A0");
        assertEquals("0x7C00\n", r.out(), "Table 1: int32 100000 -> half inf");
    }

    @Test
    void explainNamesTheRowsThatDecided() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "half", "--rounding", "rn", "--saturation", "nosat",
                "--ctrl", "60=0", "--explain", "0x3F001000");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("exact    0.500244140625"), r.out());
        assertTrue(r.out().contains("lower    0.5 (0x3800)"), r.out());
        assertTrue(r.out().contains("upper    0.50048828125 (0x3801)"), r.out());
        assertTrue(r.out().contains("between  exactly halfway (a tie): rn breaks it to the even neighbour, lower"), r.out());
        Fixtures.Run ties = Fixtures.run("", "convert", "--profile", "cuda", "--from", "float", "--to", "bfloat16",
                "--rounding", "rn", "--explain", "0x3F808000", "0x3F818000");
        assertTrue(ties.out().contains("between  exactly halfway (a tie): rn breaks it to the even neighbour, lower\n"
                + "result   0x3F80"), ties.out());
        assertTrue(ties.out().contains("between  exactly halfway (a tie): rn breaks it to the even neighbour, upper\n"
                + "result   0x3F82"), ties.out());
        assertTrue(r.out().contains("result   0x3800 (0.5) half"), r.out());
        assertTrue(r.out().contains("conversions.csv:3"), r.out());
        assertTrue(r.out().contains("Table 4 row 1"), r.out());
    }

    @Test
    void unknownTypeIsAOneLineUsageError() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "float17", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("convcert: unknown type 'float17'; did you mean float16"), r.err());
        assertTrue(r.err().contains("; known types: float half"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aModeThePairDoesNotOfferNamesTheOffered() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "fp8_e4m3fn", "--rounding", "rz", "0");
        assertEquals(2, r.exit());
        assertEquals("convcert: float->fp8_e4m3fn does not offer rounding rz; it offers rn\n", r.err());
    }

    @Test
    void malformedHexNamesWhereItIs() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "half", "--to", "float", "3C00", "3CG0");
        assertEquals(2, r.exit());
        assertEquals("convcert: malformed hex '3CG0' (argument 2)\n", r.err());
        r = Fixtures.run("3C00\n  0x1234 zz\n", "convert", "--from", "half", "--to", "float");
        assertEquals(2, r.exit());
        assertEquals("convcert: malformed hex 'zz' (stdin line 2, column 10)\n", r.err());
        r = Fixtures.run("", "convert", "--from", "half", "--to", "float", "0x10000");
        assertEquals("convcert: '0x10000' (argument 1) does not fit in half (16 bits)\n", r.err());
    }

    @Test
    void badCtrlAndDecisionAreUsageErrors() {
        Fixtures.Run r = Fixtures.run("", "convert", "--from", "float", "--to", "half", "--rounding", "rn", "--ctrl", "61=1", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("CTRL[61] does not take part in conversions"), r.err());
        r = Fixtures.run("", "convert", "--from", "float", "--to", "half", "--rounding", "rn", "--decision", "hr-band=x", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("decision hr-band has no option 'x'"), r.err());
    }

    /**
     * Every command has a one-line summary for the command list and its description is one paragraph
     * (picocli prints each array element as a line of its own, which cut sentences in the middle);
     * every option and parameter says what it is.
     */
    @Test
    void everyCommandAndOptionDescribesItself() {
        java.util.List<String> missing = new java.util.ArrayList<>();
        java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(java.util.List.of(Main.commandLine()));
        while (!todo.isEmpty()) {
            picocli.CommandLine cli = todo.pop();
            todo.addAll(cli.getSubcommands().values());
            var spec = cli.getCommandSpec();
            String name = spec.qualifiedName();
            if (spec.usageMessage().header().length != 1 && spec.usageMessage().description().length != 1) {
                missing.add(name + ": no one-line summary");
            }
            if (spec.usageMessage().description().length > 1 && !(cli.getCommand() instanceof picocli.CommandLine.HelpCommand)) {
                missing.add(name + ": a description in " + spec.usageMessage().description().length + " pieces");
            }
            spec.args().forEach(a -> {
                if (a.description().length == 0 || a.description()[0].isBlank()) {
                    missing.add(name + " " + a.paramLabel() + (a.isOption() ? " " + ((picocli.CommandLine.Model.OptionSpec) a).longestName() : "")
                            + ": no description");
                }
            });
        }
        assertEquals(java.util.List.of(), missing);
        Fixtures.Run none = Fixtures.run("");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("certify") && none.err().contains("Certify an implementation"), none.err());
    }

    @Test
    void tablesCheckSummarises() {
        Fixtures.Run r = Fixtures.run("", "tables", "check");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("examples     187"), r.out());
        assertTrue(r.out().strip().endsWith("OK"), r.out());
    }

    @Test
    void tablesCheckReportsABrokenTable(@TempDir Path temp) throws Exception {
        Path home = Path.of(System.getProperty("convcert.home"), "spec-tables", "ascend-c");
        Path dir = temp.resolve("broken");
        Files.createDirectories(dir);
        try (var files = Files.list(home)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Path formats = dir.resolve("formats.csv");
        Files.writeString(formats, Files.readString(formats).replace("0x7C00,0x7E00", "0x7C0Z,0x7E00"));
        Fixtures.Run r = Fixtures.run("", "tables", "check", "--tables", dir.toString());
        assertEquals(2, r.exit());
        assertEquals("convcert: " + convcert.common.WorkingDirectory.relative(formats) + ":3:8: inf: bad hex '0x7C0Z'\n",
                r.err());
    }

    /** ml_dtypes' names are aliases in every profile that has the format; an unknown type's error lists the aliases. */
    @Test
    void typeAliasesAreTheSameAcrossProfiles() {
        for (String profile : List.of("ascend-c", "cuda", "ocp-mx")) {
            Fixtures.Run r = Fixtures.run("", "convert", "--profile", profile, "--from", "float32", "--to", "float8_e4m3fn", "--rounding", "rn",
                    "--saturation", "sat", "0x3F800000");
            assertEquals("0x38\n", r.out(), profile + ": " + r.err());
            assertEquals(0, Fixtures.run("", "convert", "--profile", profile, "--from", "float", "--to", "float8_e5m2", "--rounding",
                    "rn", "--saturation", "sat", "0x3F800000").exit(), profile);
        }
        Fixtures.Run unknown = Fixtures.run("", "convert", "--from", "float", "--to", "fp99", "1");
        assertTrue(unknown.err().contains("fp8_e4m3fn=fp8_e4m3fn_t|e4m3fn|e4m3|float8_e4m3fn"), unknown.err());
    }

    @Test
    void tablesCheckSpeaksPlainlyOfWhatIsNotThere(@TempDir Path empty) {
        Fixtures.Run cuda = Fixtures.run("", "tables", "check", "--profile", "cuda");
        assertTrue(cuda.out().contains("no CTRL bits") && !cuda.out().contains("power-on )"), cuda.out());
        Fixtures.Run none = Fixtures.run("", "tables", "check", "--tables", empty.toString());
        assertEquals(2, none.exit());
        // the folder as the user would write it: absolute, or relative to where convcert runs when that is shorter
        assertTrue(none.err().contains(empty.getFileName() + ": this folder holds no profile's tables"), none.err());
    }
}
