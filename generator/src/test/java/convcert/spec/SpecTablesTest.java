package convcert.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.common.WorkingDirectory;
import convcert.reference.Semantics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The real tables load; a broken table is an error that names file:line:column. */
class SpecTablesTest {

    @TempDir
    Path temp;

    private Path copyProfile() throws IOException {
        return copyProfileInto(temp);
    }

    private static Path copyProfileInto(Path parent) throws IOException {
        Path dir = parent.resolve("ascend-c");
        Files.createDirectories(dir);
        for (String name : java.util.stream.Stream.concat(java.util.stream.Stream.of(SpecTables.PROFILE_FILE),
                SpecTables.FILES.stream()).toList()) {
            Path source = TestProfile.home().resolve("spec-tables/ascend-c").resolve(name);
            if (Files.exists(source)) { // optional tables the profile does not have stay absent
                Files.copy(source, dir.resolve(name));
            }
        }
        return dir;
    }

    /** Replaces the first occurrence of 'from' in the file's given (1-based) line. */
    private static void edit(Path file, int line, String from, String to) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        String old = lines.get(line - 1);
        assertTrue(old.contains(from), "test setup: line " + line + " of " + file + " holds '" + from + "'");
        lines.set(line - 1, old.replaceFirst(java.util.regex.Pattern.quote(from), to));
        Files.write(file, lines);
    }

    /** Every shipped profile names its texts with a version, the sections it restates and where to get them. */
    @Test
    void everyProfileNamesItsVersionedTexts() throws IOException {
        try (var profiles = Files.list(TestProfile.home().resolve("spec-tables"))) {
            List<Path> folders = profiles.filter(Files::isDirectory).sorted().toList();
            assertEquals(11, folders.size(), folders.toString());
            for (Path folder : folders) {
                SpecTables t = SpecTables.load(folder);
                assertFalse(t.documents().isEmpty(), folder + " has no document.csv");
                t.documents().forEach(d -> assertTrue(d.matches("\\S.* \\S.*: \\S.*; from \\S.*"), d));
            }
        }
    }

    @Test
    void theRepositoryTablesLoadAndMatchTheReference() {
        SpecTables t = TestProfile.tables();
        Semantics.checkTable(t);
        assertEquals(15, t.formats().size());
        assertTrue(t.conversions().size() > 90);
        assertEquals(64, t.digest().length());
    }

    @ParameterizedTest(name = "{0} line {1}: {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
        "conversions.csv|3|float,half|float,halff|ascend-c/conversions.csv:3:2: to: unknown type 'halff'",
        "conversions.csv|3|float,half|float,fp16|ascend-c/conversions.csv:3:2: to: write the format's name 'half', not the alias 'fp16'",
        "conversions.csv|3|rn rd ru rna rz ro|rn rd ru rna rz rx|ascend-c/conversions.csv:3:3: modes: unknown rounding mode 'rx'",
        "conversions.csv|3|float,half|float,float|ascend-c/conversions.csv:3:2: to: duplicate pair float->float",
        "examples.csv|2|0x9C,ok|0x9G,ok|ascend-c/examples.csv:2:9: expected: bad hex '0x9G'",
        "examples.csv|2|0x9C,rz|9C,rz|ascend-c/examples.csv:2:5: input: bad hex '9C'",
        "examples.csv|2|int8,uint8|int8,half|ascend-c/examples.csv:2:4: to: pair int8->half is not in conversions.csv",
        "formats.csv|1|,bias,|,biass,|ascend-c/formats.csv:1: missing column 'bias'",
        "formats.csv|3|half,|../half,|ascend-c/formats.csv:3:1: name: '../half' has a path separator",
        "formats.csv|3|half,|ha..lf,|ascend-c/formats.csv:3:1: name: 'ha..lf' has '..'",
        "formats.csv|3|fp16|fp16\u0001x|ascend-c/formats.csv:3:18: control character U+0001 in the table",
        "formats.csv|3|,16,ieee,5,10,|,16,ieee,5,11,|ascend-c/formats.csv:3:6: mantissa_bits: 1 + exponent_bits + mantissa_bits = 17",
        "formats.csv|3|0x7BFF|0x7BFE|ascend-c/formats.csv:3:10: max_finite: the largest finite ieee value is 0x7BFF",
        "ctrl.csv|2|,1,0,groups|,2,0,groups|ascend-c/ctrl.csv:2:3: power_on: expected 0 or 1, got '2'",
        "ctrl.csv|2|,1,0,groups|,1,x,groups|ascend-c/ctrl.csv:2:4: tried_first: expected 0 or 1, got 'x'",
        "saturation.csv|9|B,*,0,*,*,sat|X,*,0,*,*,sat|ascend-c/saturation.csv:9:1: group: unknown group 'X'",
        "tapered.csv|3|hifloat8,10,|hifloat8,11,|ascend-c/tapered.csv:3:2: prefix: prefix 11 is not prefix-free",
        "document.csv|5|,published,|,standard,|ascend-c/document.csv:5:5: status: expected published or draft, got 'standard'",
        "document.csv|5|\"Revision 1.0 (2023-12-01)\"|\"\"|ascend-c/document.csv:5:2: version: value required",
        "decisions.csv|2|largest-finite infinity rounded-beyond,|largest-finite,|ascend-c/decisions.csv:2: decision directed-overflow lists options [largest-finite] but the reference implements",
    })
    void brokenTablesNameFileLineAndColumn(String file, int line, String from, String to, String message)
            throws IOException {
        Path dir = copyProfile();
        edit(dir.resolve(file), line, from, to);
        TableException e = assertThrows(TableException.class, () -> Semantics.checkTable(SpecTables.load(dir)));
        String where = WorkingDirectory.relative(dir).toString(); // the path as typed from here: absolute for a temp folder
        assertTrue(e.getMessage().startsWith(where.substring(0, where.length() - "ascend-c".length()) + message),
                () -> "expected a message starting with\n  " + where + "/.../" + message
                + "\nbut got\n  " + e.getMessage());
    }

    /** A family's names are identifiers too: a pattern that puts a path into them is refused at its row (issue 37). */
    @Test
    void aFamilyWhoseNamesHoldAPathIsRefusedAtItsRow() throws IOException {
        Path dir = temp.resolve("p3109");
        Files.createDirectories(dir);
        try (var files = Files.list(TestProfile.home().resolve("spec-tables/p3109"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        edit(dir.resolve("families.csv"), 2, "p3109-k8,binary{k}", "p3109-k8,../binary{k}");
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().endsWith("p3109/families.csv:2:2: name: '../binary8p1se' has a path separator"
                + ": a name is an identifier, also used in file names"), e.getMessage());
    }

    @Test
    void aNanResultOnlyForIntegerDestinationsThatHoldIt() throws IOException {
        Path dir = copyProfile();
        Path file = dir.resolve("conversions.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        for (int i = 0; i < lines.size(); i++) {
            lines.set(i, lines.get(i) + (i == 0 ? ",nan_result" : i == 2 ? ",0x1" : ","));
        }
        Files.write(file, lines);
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().endsWith("ascend-c/conversions.csv:3:9: nan_result: only for integer destinations "
                + "(a floating one has formats.csv nan and sat_nan)"), e.getMessage());
        int int8 = lines.indexOf(lines.stream().filter(l -> l.startsWith("half,int8,")).findFirst().orElseThrow());
        lines.set(2, lines.get(2).replace(",0x1", ","));
        lines.set(int8, lines.get(int8).replaceFirst(",$", ",0x100"));
        Files.write(file, lines);
        e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().endsWith("ascend-c/conversions.csv:" + (int8 + 1) + ":9: nan_result: does not fit in 8 bits"),
                e.getMessage());
        lines.set(int8, lines.get(int8).replace(",0x100", ",0x80"));
        Files.write(file, lines);
        SpecTables t = SpecTables.load(dir);
        assertEquals(0x80, t.conversions().stream().filter(c -> c.pairName().equals("half->int8")).findFirst().orElseThrow()
                .integerNan());
    }

    @Test
    void anIncompleteSaturationTableIsAnError() throws IOException {
        Path dir = copyProfile();
        Path file = dir.resolve("saturation.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.removeIf(l -> l.startsWith("B,*,0,"));
        Files.write(file, lines);
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().contains("no rule matches group B"), e.getMessage());
    }

    @Test
    void aMissingTableIsAnError() throws IOException {
        Path dir = copyProfile();
        Files.delete(dir.resolve("saturation-groups.csv"));
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().contains("profile.csv:6:1: file: saturation-groups.csv is declared but missing"),
                e.getMessage());
        // ctrl.csv may be left out by a profile without CTRL bits; Ascend C's rows need its bits.
        Path again = copyProfileInto(temp.resolve("second"));
        Files.delete(again.resolve("ctrl.csv"));
        undeclare(again, "ctrl.csv");
        e = assertThrows(TableException.class, () -> SpecTables.load(again));
        assertTrue(e.getMessage().contains("ctrl.csv: no row for CTRL[50]"), e.getMessage());
    }

    private static void undeclare(Path dir, String file) throws IOException {
        Path profile = dir.resolve(SpecTables.PROFILE_FILE);
        List<String> lines = new ArrayList<>(Files.readAllLines(profile));
        assertTrue(lines.removeIf(l -> l.startsWith(file + ",")), "test setup: " + file + " is declared");
        Files.write(profile, lines);
    }

    /** profile.csv says what the profile holds: nothing is read that it does not declare, nothing declared is absent. */
    @Test
    void theProfileDeclaresEveryTable() throws IOException {
        Path dir = copyProfile();
        undeclare(dir, "tapered.csv");
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().contains("tapered.csv: not declared in profile.csv"), e.getMessage());
        Path core = copyProfileInto(temp.resolve("core"));
        undeclare(core, "conversions.csv");
        Files.delete(core.resolve("conversions.csv"));
        e = assertThrows(TableException.class, () -> SpecTables.load(core));
        assertTrue(e.getMessage().contains("the core table conversions.csv is not declared"), e.getMessage());
        Path extension = copyProfileInto(temp.resolve("extension"));
        Files.writeString(extension.resolve("types.csv"), "opencl,format,bytes,extension,gentype,description\n");
        Files.writeString(extension.resolve(SpecTables.PROFILE_FILE), Files.readString(extension.resolve(
                SpecTables.PROFILE_FILE)) + "types.csv,opencl-memory,only one of the extension's tables\n");
        e = assertThrows(TableException.class, () -> SpecTables.load(extension));
        assertTrue(e.getMessage().contains("extension opencl-memory needs all of"), e.getMessage());
        Path part = copyProfileInto(temp.resolve("part"));
        Files.writeString(part.resolve(SpecTables.PROFILE_FILE), Files.readString(part.resolve(SpecTables.PROFILE_FILE))
                .replace("examples.csv,core", "examples.csv,cor"));
        e = assertThrows(TableException.class, () -> SpecTables.load(part));
        assertTrue(e.getMessage().contains("part: unknown part 'cor'"), e.getMessage());
    }
}
