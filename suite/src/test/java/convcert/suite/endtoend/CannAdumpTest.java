package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CANN runtime's printf and dump decoders (suite/devices/cann-adump), built where RUNTIME_SRC names a
 * hicann/runtime checkout: every code of HiFloat8, E4M3 and E5M2 decodes right, as committed
 * (reports/devices/cann-adump).
 */
class CannAdumpTest {

    @Test
    void everyCodeDecodesToItsValue(@TempDir Path out) throws Exception {
        String source = System.getenv("RUNTIME_SRC");
        Path printf = source == null ? null : Path.of(source, "src/dfx/adump/adump/printf");
        assumeTrue(printf != null && Files.isRegularFile(printf.resolve("hifloat.cpp")),
                "RUNTIME_SRC: a hicann/runtime checkout with src/dfx/adump/adump/printf/hifloat.cpp");
        Path device = Fixtures.HOME.resolve("suite/devices/cann-adump");
        Path dut = out.resolve("adump_dut");
        Fixtures.compile("c++", "-std=c++17", "-O2", "-I", device.resolve("stubs").toString(), "-I",
                printf.toString(), "-o", dut.toString(), device.resolve("dut.cc").toString(),
                printf.resolve("hifloat.cpp").toString());
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "ascend-c", "--level", "ci", "--pair",
                "hifloat8:float", "--pair", "fp8_e4m3fn:float", "--pair", "fp8_e5m2:float", "--adapter", "process:cmd=" + dut);
        assertEquals(0, r.exit(), r.out() + r.err());
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/cann-adump/ascend-c")),
                Fixtures.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches", "kinds"));
    }
}
