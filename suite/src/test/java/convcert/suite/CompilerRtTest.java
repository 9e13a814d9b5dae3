package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LLVM compiler-rt's half and bfloat16 builtins (suite/devices/compiler-rt), rebuilt where clang-15 and
 * its builtins are installed: the verdicts are the committed ones case by case, the float -> bfloat16
 * truncation's zero and subnormal defect included (reports/devices/compiler-rt/README.md).
 */
class CompilerRtTest {

    @Test
    void theBuiltinsVerdictsAreTheCommittedOnes(@TempDir Path out) throws Exception {
        Path dut = out.resolve("compiler_rt_dut");
        Process cc;
        try {
            cc = new ProcessBuilder("clang-15", "-O2", "-frounding-math", "--rtlib=compiler-rt", "-o", dut.toString(),
                    CertifyTest.HOME.resolve("suite/devices/compiler-rt/dut.c").toString(), "-lm").inheritIO().start();
        } catch (java.io.IOException e) {
            cc = null;
        }
        assumeTrue(cc != null && cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0,
                "clang-15 with compiler-rt's builtins (Debian: apt-get install clang-15)");
        MainTest.Run r = CertifyTest.certify(out.resolve("r"), "--profile", "cuda", "--level", "ci", "--adapter",
                "process:cmd=" + dut);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode now = CertifyTest.report(out.resolve("r"));
        CertifyTest.sameCases(CertifyTest.report(CertifyTest.HOME.resolve("reports/devices/compiler-rt/cuda")), now,
                List.of("name", "status", "vectors", "mismatches", "kinds"));
        assertEquals("input 0x00000000 (0.0) [0.00000000.00000000000000000000000]: expected 0x0000 (0.0), actual 0x0040 "
                + "(5.877471754111438E-39) [subnormal vs zero (flush)]",
                CertifyTest.find(now, "float->bfloat16/rn-nosat").get("firstMismatches").get(0).asText());
    }
}
