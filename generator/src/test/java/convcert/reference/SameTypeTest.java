package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A format to itself: CUDA's rintf rounds to an integral value, OpenCL's convert_float(float) changes nothing. */
class SameTypeTest {

    private static long convert(Reference r, String type, String mode, long bits) {
        return r.converter(r.resolve(type, type, mode, "nosat", r.ctrl(""))).apply(bits);
    }

    @Test
    void openClsSameTypeConversionIsTheIdentityInEveryMode() {
        Reference opencl = TestProfile.reference("opencl");
        for (String mode : List.of("rn", "rz", "ru", "rd")) {
            for (long bits : new long[] {0x00000001L, 0x3FC00000L, 0xBF400000L, 0x7F7FFFFFL, 0x80000000L, 0xFF800000L}) {
                assertEquals(bits, convert(opencl, "float", mode, bits), "float " + Long.toHexString(bits) + " " + mode);
            }
            assertEquals(0x0001L, convert(opencl, "half", mode, 0x0001L), "the smallest half subnormal, " + mode);
            assertEquals(0x3FF8000000000001L, convert(opencl, "double", mode, 0x3FF8000000000001L), mode);
        }
    }

    @Test
    void cudasSameTypeConversionRoundsToAnIntegralValue() {
        Reference cuda = TestProfile.reference("cuda");
        assertEquals(0x3F800000L, convert(cuda, "float", "rz", 0x3FC00000L), "truncf(1.5) = 1");
        assertEquals(0x40000000L, convert(cuda, "float", "rn", 0x3FC00000L), "rintf(1.5) = 2");
    }

    @Test
    void sameTypeIsRefusedOnAnyOtherPairOrWord(@TempDir Path temp) throws IOException {
        Path dir = temp.resolve("opencl");
        Files.createDirectories(dir);
        try (var files = Files.list(TestProfile.home().resolve("spec-tables/opencl"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Path conversions = dir.resolve("conversions.csv");
        List<String> lines = Files.readAllLines(conversions);
        int last = lines.size() - 1;
        lines.set(last, lines.get(last).replace(",identity", ",unchanged"));
        Files.write(conversions, lines);
        TableException e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().contains("conversions.csv:" + (last + 1) + ":9: same_type: expected integral or identity, "
                + "got 'unchanged'"), e.getMessage());
        lines.set(last, lines.get(last).replace(",unchanged", ",identity"));
        lines.set(1, lines.get(1) + "identity");
        Files.write(conversions, lines);
        e = assertThrows(TableException.class, () -> SpecTables.load(dir));
        assertTrue(e.getMessage().contains("conversions.csv:2:9: same_type: only for a format to itself"), e.getMessage());
    }
}
