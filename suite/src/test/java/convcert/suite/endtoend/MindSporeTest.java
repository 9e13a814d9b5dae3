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
 * MindSpore's host HiFloat8 and FP8 classes (suite/devices/mindspore), built where MINDSPORE_SRC names a checkout:
 * the verdicts are the committed ones case by case, and 0x30 still decodes to 4.0 (reports/devices/mindspore).
 */
class MindSporeTest {

    @Test
    void hifloat8LosesTheSignOfNegativeExponentsAndFp8Passes(@TempDir Path out) throws Exception {
        String source = System.getenv("MINDSPORE_SRC");
        Path include = source == null ? null : Path.of(source, "mindspore/core/include");
        assumeTrue(include != null && Files.isRegularFile(include.resolve("base/hifloat8.h"))
                && Files.isRegularFile(include.resolve("base/float8_e4m3fn.h")),
                "MINDSPORE_SRC: a MindSpore checkout with mindspore/core/include/base/{hifloat8,float8_e4m3fn}.h");
        Path dut = out.resolve("mindspore_dut");
        Fixtures.compile("c++", "-std=c++17", "-O2", "-I", include.toString(), "-o", dut.toString(),
                Fixtures.HOME.resolve("suite/devices/mindspore/dut.cc").toString());
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "ascend-c", "--level", "ci",
                "--pair", "float:hifloat8", "--pair", "hifloat8:float", "--pair", "float:fp8_e4m3fn", "--pair", "fp8_e4m3fn:float",
                "--pair", "float:fp8_e5m2", "--pair", "fp8_e5m2:float", "--adapter", "process:cmd=" + dut);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode now = Fixtures.report(out.resolve("r"));
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/mindspore/ascend-c")), now,
                List.of("name", "status", "vectors", "mismatches", "kinds"));
        assertEquals("input 0x30 (0.25) [0.01.10000]: expected 0x3E800000 (0.25), actual 0x40800000 (4.0) [other]",
                Fixtures.find(now, "hifloat8->float/rn-nosat").get("firstMismatches").get(0).asText());
    }
}
