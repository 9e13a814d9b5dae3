package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LLVM compiler-rt's half and bfloat16 builtins (suite/devices/compiler-rt), rebuilt where each clang and its
 * builtins are installed: the verdicts are the committed ones case by case. compiler-rt 15 truncates zero and
 * subnormal floats to bfloat16 wrongly; compiler-rt 22 passes every case, its half builtins called with the
 * SSE register ABI it was built with (reports/devices/compiler-rt/README.md).
 */
class CompilerRtTest {

    private static Path build(Path out, String clang, String... defines) throws Exception {
        Path dut = out.resolve("compiler_rt_dut");
        List<String> command = new ArrayList<>(List.of(clang, "-O2", "-frounding-math", "--rtlib=compiler-rt"));
        command.addAll(List.of(defines));
        command.addAll(List.of("-o", dut.toString(), Fixtures.HOME.resolve("suite/devices/compiler-rt/dut.c").toString(),
                "-lm"));
        Process cc;
        try {
            cc = new ProcessBuilder(command).inheritIO().start();
        } catch (java.io.IOException e) {
            cc = null;
        }
        assumeTrue(cc != null && cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0,
                clang + " with compiler-rt's builtins (Debian: apt-get install " + clang + ", and libclang-rt-22-dev for 22)");
        return dut;
    }

    private static JsonNode certify(Path out, Path dut, int exit, String committed) throws Exception {
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "cuda", "--level", "ci", "--adapter",
                "process:cmd=" + dut);
        assertEquals(exit, r.exit(), r.out() + r.err());
        JsonNode now = Fixtures.report(out.resolve("r"));
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/compiler-rt/" + committed)), now,
                List.of("name", "status", "vectors", "mismatches", "kinds"));
        return now;
    }

    @Test
    void compilerRt15TruncatesZeroToBfloat16Wrongly(@TempDir Path out) throws Exception {
        JsonNode now = certify(out, build(out, "clang-15"), 1, "cuda");
        assertEquals("input 0x00000000 (0.0) [0.00000000.00000000000000000000000]: expected 0x0000 (0.0), actual 0x0040 "
                + "(5.877471754111438E-39) [other]",
                Fixtures.find(now, "float->bfloat16/rn-nosat").get("firstMismatches").get(0).asText());
    }

    @Test
    void compilerRt22PassesEveryCase(@TempDir Path out) throws Exception {
        JsonNode now = certify(out, build(out, "clang-22", "-DHALF_IN_SSE"), 0, "cuda-llvm22");
        assertEquals("PASS", Fixtures.find(now, "float->bfloat16/rn-nosat").get("status").asText());
    }
}
