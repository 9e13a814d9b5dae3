package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import convcert.TestProfile;
import convcert.spec.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The IEEE P3109 working group's published value tables (P3109/Public, "Value Tables/Hexadecimal":
 * a CSV per format, the value of every code point as a hexadecimal float) as an oracle for the p3109
 * profile's 44 formats of K = 4 and K = 8: every code decodes to the table's value, and every value the
 * table lists, converted from float (exactly: each is a float) under (NearestTiesToEven, SatNone),
 * encodes to its code. The tables are the working group's, not convcert's, so they are not committed:
 * point -Dconvcert.p3109.tables (or P3109_VALUE_TABLES) at that folder of a checkout; skipped without it.
 */
class P3109ValueTablesTest {

    static final Reference P3109 = TestProfile.reference("p3109");

    @Test
    void everyCodeOfEveryFormatHasTheWorkingGroupsValue() throws IOException {
        String where = System.getProperty("convcert.p3109.tables", System.getenv("P3109_VALUE_TABLES"));
        assumeTrue(where != null && Files.isDirectory(Path.of(where)),
                "no P3109 value tables here: set -Dconvcert.p3109.tables to P3109/Public's 'Value Tables/Hexadecimal'");
        Path tables = Path.of(where);
        List<String> wrong = new ArrayList<>();
        int formats = 0;
        for (Format f : P3109.tables().formats()) {
            String name = f.name();
            if (!name.matches("binary[48]p\\d+[su][ef]")) {
                continue;
            }
            int k = Integer.parseInt(name.substring(6, 7));
            int p = Integer.parseInt(name.substring(8, name.length() - 2));
            boolean signed = name.charAt(name.length() - 2) == 's';
            Path file = tables.resolve("K" + k).resolve("P" + p).resolve(signed ? "signed" : "unsigned")
                    .resolve("B" + name.substring(1) + ".csv");
            assertTrue(Files.isRegularFile(file), "no table " + file);
            FormatCodec codec = P3109.codec(f);
            Converter encode = P3109.converter(P3109.resolve("float", name, "rn", "satnone", P3109.ctrl("")));
            for (String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size())) {
                String[] cells = line.split(",", -1);
                long code = Long.parseLong(cells[0].substring(2), 16);
                double want = switch (cells[1].strip()) {
                    case "Inf" -> Double.POSITIVE_INFINITY;
                    case "-Inf" -> Double.NEGATIVE_INFINITY;
                    case "NaN" -> Double.NaN;
                    default -> Double.parseDouble(cells[1].strip());
                };
                double got = value(codec.decode(code));
                if (Double.compare(want, got) != 0 && !(want == 0 && got == 0)) {
                    wrong.add(name + " decode 0x" + Long.toHexString(code) + ": table " + cells[1] + ", convcert " + got);
                }
                long back = encode.apply(Float.floatToRawIntBits((float) want) & 0xFFFFFFFFL);
                if (back != code && !(Double.isNaN(want) && codec.decode(back).kind() == Decoded.Kind.NAN)) {
                    wrong.add(name + " encode " + cells[1] + ": table 0x" + Long.toHexString(code) + ", convcert 0x"
                            + Long.toHexString(back));
                }
            }
            formats++;
        }
        assertEquals(44, formats, "the K = 4 and K = 8 formats");
        assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
    }

    private static double value(Decoded d) {
        return switch (d.kind()) {
            case ZERO -> d.negative() ? -0.0 : 0.0;
            case FINITE -> (d.negative() ? -1 : 1) * Math.scalb((double) d.significand(), d.exponent());
            case INFINITE -> d.negative() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            case NAN -> Double.NaN;
        };
    }
}
