package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block format is a row of blocks.csv: a copy of the cuda tables with one more row, a two-level
 * format of 32 elements, checks, generates and certifies with no code changed: the numpy device of
 * suite/devices/nvfp4-python, told the row's name and size, passes it, and one generated block is
 * worked by hand.
 */
class BlockRowTest {

    static Path withRow(Path temp) throws IOException {
        Path dir = Files.createDirectories(temp.resolve("cuda"));
        try (Stream<Path> files = Files.list(Fixtures.HOME.resolve("spec-tables/cuda"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Files.writeString(dir.resolve("blocks.csv"), "nvfp4_32,,fp4_e2m1,fp8_e4m3fn,32,float,rn,packed,"
                + "\"NVFP4's recipe over blocks of 32 (a test row)\",test,float,\n", StandardOpenOption.APPEND);
        return dir;
    }

    /** rs in a row's modes needs the format of its random bits, an unsigned integer; random bits need rs. */
    @Test
    void aStochasticRowNeedsItsRandomBitsAndNothingElseHasThem(@TempDir Path temp) throws IOException {
        Path tables = withRow(temp);
        Path blocks = tables.resolve("blocks.csv");
        String table = Files.readString(blocks);
        String[][] bad = {
            {",rn rs,packed,\"a test row\",test,float,\n", "modes: rs (stochastic rounding) needs the format"},
            {",rn,packed,\"a test row\",test,float,uint8\n", "random: random bits without rs"},
            {",rn rs,packed,\"a test row\",test,float,int8\n", "random: random bits are an unsigned integer format"},
        };
        for (String[] row : bad) {
            Files.writeString(blocks, table + "nvfp4_rs,,fp4_e2m1,fp8_e4m3fn,16,float" + row[0]);
            Fixtures.Run check = Fixtures.run("", "tables", "check", "--tables", tables.toString());
            assertEquals(2, check.exit(), check.out() + check.err());
            assertEquals(1, check.err().strip().lines().count(), check.err());
            assertTrue(check.err().contains("blocks.csv:6") && check.err().contains(row[1]), check.err());
        }
        Files.writeString(blocks, table + "nvfp4_rs,,fp4_e2m1,fp8_e4m3fn,16,float,rn rs,packed,\"a test row\",test,float,uint8\n");
        Fixtures.Run check = Fixtures.run("", "tables", "check", "--tables", tables.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
    }

    @Test
    void aTwoLevelRowAloneChecksGeneratesAndCertifies(@TempDir Path temp) throws IOException {
        Path tables = withRow(temp);
        Fixtures.Run check = Fixtures.run("", "tables", "check", "--tables", tables.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("4 block formats (fp4x2_e2m1 nvfp4 nvfp4_ue5m3 nvfp4_32)"), check.out());
        Path vectors = temp.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--tables", tables.toString(), "--format", "bin,csv", "--out",
                vectors.toString()).exit());

        // The first element-grid block: A = 2688 (T = G = 1), largest value 6, so s = 1 and S = 0x38; every
        // other value is an E2M1 value or a midpoint (a tie, to the even code), so its element is known by hand.
        List<String> rows = Files.readAllLines(vectors.resolve("cuda/float-nvfp4_32/rn-block.csv"));
        String grid = rows.stream().filter(r -> r.endsWith(",element-grid")).findFirst().orElseThrow();
        String[] in = grid.split(",")[1].split(" ");
        String[] out = grid.split(",")[2].split(" ");
        assertEquals(33, in.length);
        assertEquals(33, out.length);
        assertEquals("0x45280000", in[0]);
        assertEquals("0x38", out[0]);
        double[] values = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
        for (int i = 1; i <= 32; i++) {
            float x = Float.intBitsToFloat(Integer.parseUnsignedInt(in[i].substring(2), 16));
            double a = Math.abs(x);
            int code = 0;
            while (code < 7 && values[code + 1] <= a) {
                code++;
            }
            if (code < 7) {
                double below = a - values[code];
                double above = values[code + 1] - a;
                code += above < below || (above == below && code % 2 == 1) ? 1 : 0;
            }
            int want = (Float.floatToRawIntBits(x) < 0 ? 8 : 0) | code;
            assertEquals("0x" + Integer.toHexString(want).toUpperCase(), out[i], "element " + i + " of " + x);
        }

        Path device = Fixtures.HOME.resolve("suite/devices/nvfp4-python/dut.py");
        Fixtures.Run r = Fixtures.certify(temp.resolve("report"), "--tables", tables.toString(), "--vectors",
                vectors.toString(), "--only", "*nvfp4_32*", "--adapter",
                "process:cmd=python3 " + device + " --name nvfp4_32 --size 32");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS: 2 cases"), r.out());
    }
}
