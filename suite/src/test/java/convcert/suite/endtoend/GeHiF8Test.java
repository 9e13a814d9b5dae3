package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Huawei GE's ge::HiF8 (suite/devices/ge-hif8), built where GE_SRC names a hicann/ge checkout: the verdicts are
 * the committed ones case by case, and the smallest float subnormal still converts to infinity
 * (reports/devices/ge-hif8).
 */
class GeHiF8Test {

    @Test
    void floatSubnormalsBelow2ToTheMinus128ConvertToInfinity(@TempDir Path out) throws Exception {
        String source = System.getenv("GE_SRC");
        Path base = source == null ? null : Path.of(source, "base");
        assumeTrue(base != null && Files.isRegularFile(base.resolve("common/math/hif8_t.cc")),
                "GE_SRC: a hicann/ge checkout with base/common/math/hif8_t.cc");
        Path device = Fixtures.HOME.resolve("suite/devices/ge-hif8");
        Path dut = out.resolve("ge_hif8_dut");
        Fixtures.compile("c++", "-std=c++17", "-O2", "-I", device.resolve("stubs").toString(), "-I",
                base.toString(), "-o", dut.toString(), device.resolve("dut.cc").toString(),
                base.resolve("common/math/hif8_t.cc").toString());
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "ascend-c", "--level", "ci", "--pair",
                "float:hifloat8", "--pair", "half:hifloat8", "--pair", "hifloat8:float", "--adapter", "process:cmd=" + dut);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode now = Fixtures.report(out.resolve("r"));
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/ge-hif8/ascend-c")), now,
                List.of("name", "status", "vectors", "mismatches", "kinds"));
        assertEquals("input 0x00000001 (1.401298464324817E-45) [0.00000000.00000000000000000000001]: expected 0x00 (0.0), "
                + "actual 0x6F (inf) [other]", Fixtures.find(now, "float->hifloat8/rna-nosat").get("firstMismatches").get(0).asText());
    }
}
