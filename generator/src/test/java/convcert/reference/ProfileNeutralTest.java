package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.TestProfile;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import convcert.spi.CtrlState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core names no control bit: the Ascend C profile with its CTRL bits renumbered in the tables
 * alone (60 -> 7, 48 -> 3, 59 -> 12, 50 -> 21) has the same saturation states, the same variants and
 * the same results for every case.
 */
class ProfileNeutralTest {

    static final Map<Integer, Integer> RENUMBERED = Map.of(60, 7, 48, 3, 59, 12, 50, 21);

    @TempDir
    Path temp;

    private Path renumbered() throws IOException {
        Path source = TestProfile.home().resolve("spec-tables/ascend-c");
        Path dir = Files.createDirectories(temp.resolve("ascend-c"));
        try (var files = Files.list(source)) {
            for (Path f : files.toList()) {
                String text = Files.readString(f);
                for (var e : RENUMBERED.entrySet()) {
                    String from = String.valueOf(e.getKey());
                    String to = String.valueOf(e.getValue());
                    text = switch (f.getFileName().toString()) {
                        case "ctrl.csv" -> text.replaceAll("(?m)^" + from + ",", to + ",");
                        case "saturation.csv" -> text.replace("ctrl" + from, "ctrl" + to);
                        case "formats.csv" -> text.replace(",ctrl" + from + ",", ",ctrl" + to + ",");
                        case "examples.csv" -> text.replaceAll("\\b" + from + "=([01])", to + "=$1");
                        default -> text;
                    };
                }
                Files.writeString(dir.resolve(f.getFileName()), text);
            }
        }
        return dir;
    }

    private static CtrlState renumber(CtrlState ctrl) {
        Map<Integer, Integer> bits = new java.util.TreeMap<>();
        ctrl.bits().forEach((bit, value) -> bits.put(RENUMBERED.get(bit), value));
        return new CtrlState(bits);
    }

    @Test
    void renumberedControlBitsGiveTheSameCases() throws IOException {
        Reference original = TestProfile.reference();
        Reference other = Reference.of(SpecTables.load(renumbered()));
        long[] inputs = new SplittableRandom(5).longs(4096).toArray();
        int cases = 0;
        for (Conversion c : original.tables().conversions()) {
            Conversion d = other.conversion(c.from().name(), c.to().name());
            for (Rounding mode : c.modes()) {
                var a = original.saturationVariants(c, mode);
                var b = other.saturationVariants(d, mode);
                assertEquals(a.keySet(), b.keySet(), c.pairName() + " " + mode.suffix() + ": states");
                for (String state : a.keySet()) {
                    List<Case> va = a.get(state);
                    List<Case> vb = b.get(state);
                    assertEquals(va.size(), vb.size(), c.pairName() + " " + state + ": variants");
                    for (int i = 0; i < va.size(); i++) {
                        // the primary is the same; the others may list in another order (labels name bits descending)
                        Case mine = va.get(i);
                        Case theirs = i == 0 ? vb.get(0) : vb.stream().filter(v -> v.form() == mine.form()
                                && v.ctrl().equals(renumber(mine.ctrl()))).findFirst().orElse(null);
                        assertEquals(mine.form(), theirs == null ? null : theirs.form(), c.pairName() + " " + state + " variant " + i);
                        assertEquals(renumber(mine.ctrl()), theirs.ctrl(), c.pairName() + " " + state + " variant " + i);
                        long[] x = new long[inputs.length];
                        long[] y = new long[inputs.length];
                        original.converter(mine).apply(inputs, 0, x, 0, inputs.length);
                        other.converter(theirs).apply(inputs, 0, y, 0, inputs.length);
                        assertArrayEquals(x, y, c.pairName() + " " + state + " variant " + i);
                        cases++;
                    }
                }
            }
        }
        assertEquals(1034, cases, "every variant of the committed golden set");
    }
}
