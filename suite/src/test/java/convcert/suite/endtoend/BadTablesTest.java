package convcert.suite.endtoend;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Damaged tables: `tables check` names the file, line and column of what is wrong in one line (exit 2),
 * and takes what is only unusual (a byte order mark).
 */
class BadTablesTest {

    @TempDir
    Path temp;

    /** A copy of a profile's tables to damage. */
    private Path tables(String profile) throws IOException {
        Path dir = temp.resolve(profile);
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(Fixtures.HOME.resolve("spec-tables").resolve(profile))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        saved with a byte order mark | 0 | OK
        an unterminated quote        | 2 | formats.csv:4: not valid CSV: a quoted field is not closed
        bytes that are not UTF-8     | 2 | formats.csv:3:5: not UTF-8 text: byte 0xFF
        a worked example changed     | 2 | : example
        """)
    void tablesCheckNamesWhatIsWrong(String damage, int exit, String message) throws IOException {
        Path dir = tables("ascend-c");
        Path formats = dir.resolve("formats.csv");
        switch (damage) {
            case "saved with a byte order mark" -> Files.write(formats, prepend(new byte[] {(byte) 0xEF, (byte) 0xBB,
                    (byte) 0xBF}, Files.readAllBytes(formats)));
            case "an unterminated quote" -> {
                List<String> lines = new ArrayList<>(Files.readAllLines(formats));
                lines.set(3, lines.get(3) + ",\"open");
                Files.write(formats, lines);
            }
            case "bytes that are not UTF-8" -> {
                byte[] b = Files.readAllBytes(formats);
                int third = 0;
                for (int i = 0, lines = 0; i < b.length; i++) {
                    if (b[i] == '\n' && ++lines == 2) {
                        third = i + 1;
                        break;
                    }
                }
                b[third + 4] = (byte) 0xFF;
                Files.write(formats, b);
            }
            case "a worked example changed" -> {
                Path examples = dir.resolve("examples.csv");
                List<String> lines = new ArrayList<>(Files.readAllLines(examples));
                String[] cells = lines.get(1).split(",", -1);
                String header = lines.getFirst();
                int column = List.of(header.split(",")).indexOf("expected");
                cells[column] = cells[column].endsWith("0") ? cells[column].substring(0, cells[column].length() - 1) + "1"
                        : cells[column].substring(0, cells[column].length() - 1) + "0";
                lines.set(1, String.join(",", cells));
                Files.write(examples, lines, StandardCharsets.UTF_8);
            }
            default -> throw new IllegalArgumentException(damage);
        }
        RobustnessTest.outcome(Fixtures.run("", "tables", "check", "--tables", dir.toString()), null).expect(exit, message);
    }

    @Test
    void tablesCheckValidatesTheOpenClExtension() throws IOException {
        Path dir = tables("opencl");
        Path types = dir.resolve("types.csv");
        Files.writeString(types, Files.readString(types).replaceFirst("\nint,int32,", "\nint,int23,"));
        RobustnessTest.outcome(Fixtures.run("", "tables", "check", "--tables", dir.toString()), null)
                .expect(2, "types.csv:6:2: format: 'int23' is not a format of formats.csv");
    }

    /**
     * gfx950's stochastic scaled rows: the value, its scale and its random bits make one 64-bit operand, and
     * an rs example gives its random bits, which no rn example may.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        random bits that overflow the operand | conversions.csv | ",22$" | ",25"         | conversions.csv:6:7: scale: float and a 8-bit scale with 25 random bits do not fit in one 64-bit operand
        an rs example without random bits     | examples.csv    | ",0,0x200000,0x7,ok" | ",0,,0x7,ok" | examples.csv:54:10: random: rs takes random bits: the example needs a random column
        random bits on an rn example          | examples.csv    | "^(fp8-one,.*,0),,0x38" | "$1,0x1,0x38" | examples.csv:2:10: random: random bits need rounding rs
        """)
    void aStochasticScaledRowIsChecked(String damage, String file, String from, String to, String message) throws IOException {
        Path f = tables("gfx950").resolve(file);
        List<String> lines = new ArrayList<>(Files.readAllLines(f));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(file.startsWith("conversions") ? "float,fp4_e2m1," : "")) {
                String changed = lines.get(i).replaceFirst(from.replace("\"", ""), to.replace("\"", ""));
                if (!changed.equals(lines.get(i))) {
                    lines.set(i, changed);
                    break;
                }
            }
        }
        Files.write(f, lines, StandardCharsets.UTF_8);
        RobustnessTest.outcome(Fixtures.run("", "tables", "check", "--tables", f.getParent().toString()), null)
                .expect(2, message);
    }

    /** tensors.csv's rotation column: a Hadamard rotation of whole blocks, one sign per row. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        a rotation of another size     | hadamard-32:+++-+------+-+-- | tensors.csv:4:11: rotation: a rotation spans one block of 4, 16 or 64 values
        a sign that is not + or -      | hadamard-16:+++-+------+-+-x | tensors.csv:4:11: rotation: expected 16 signs, each + or -, after the colon
        a rotation that is not named   | walsh-16:+++-+------+-+--    | tensors.csv:4:11: rotation: expected hadamard-SIZE:SIGNS
        a partial block under rotation | 64,24,column->60,24,column   | tensors.csv:4:11: rotation: a rotation takes whole blocks: 60 values
        """)
    void aRotationIsChecked(String damage, String change, String message) throws IOException {
        Path f = tables("cuda").resolve("tensors.csv");
        String[] fromTo = change.contains("->") ? change.split("->") : new String[] {"hadamard-16:+++-+------+-+--", change};
        Files.writeString(f, Files.readString(f).replace(fromTo[0], fromTo[1]));
        RobustnessTest.outcome(Fixtures.run("", "tables", "check", "--tables", f.getParent().toString()), null)
                .expect(2, message);
    }

    private static byte[] prepend(byte[] head, byte[] tail) {
        byte[] all = new byte[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
