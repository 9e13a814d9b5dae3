package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GCC's _Float16 conversions (libgcc soft-fp, suite/devices/gcc-float16) certified with their flags under
 * riscv: they agree, result and flags, with the committed report case by case.
 */
class GccFloat16Test {

    @Test
    void libgccsHalfConversionsAndFlagsAgree(@TempDir Path out) throws Exception {
        Path dut = out.resolve("gcc_float16");
        Process cc = new ProcessBuilder("cc", "-O2", "-mno-f16c", "-frounding-math", "-o", dut.toString(),
                Fixtures.HOME.resolve("suite/devices/gcc-float16/dut.c").toString(), "-lm").inheritIO().start();
        assumeTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "GCC with _Float16 (x86-64, GCC 12 or later)");
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "riscv", "--level", "ci", "--adapter",
                "process:cmd=" + dut);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains(FlagsLaneTest.NOT_CERTIFIED), r.out());
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/gcc-float16/riscv")),
                Fixtures.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches"));
    }

    private static Path library(Path out, String name, String... defines) throws Exception {
        Path library = out.resolve(name);
        List<String> command = new java.util.ArrayList<>(List.of("cc", "-O2", "-mno-f16c", "-frounding-math", "-shared",
                "-fPIC", "-DCONVCERT_LIBRARY"));
        command.addAll(List.of(defines));
        command.addAll(List.of("-I", Fixtures.HOME.resolve("suite/native").toString(), "-o", library.toString(),
                Fixtures.HOME.resolve("suite/devices/gcc-float16/dut.c").toString(), "-lm"));
        Process cc = new ProcessBuilder(command).inheritIO().start();
        assumeTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "GCC with _Float16 (x86-64, GCC 12 or later)");
        return library;
    }

    /** A library that says it reports flags (convcert_convert_flags) and never writes them fails: the flags are poisoned. */
    @Test
    void aNativeLibraryLeavingItsFlagsUnwrittenFails(@TempDir Path out) throws Exception {
        Path library = library(out, "libunwritten.so", "-DCONVCERT_FLAGS_UNWRITTEN");
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "riscv", "--level", "ci", "--pair", "float:half",
                "--adapter", "native:lib=" + library);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("{exception flags=") && r.out().contains("actual e0"), "every flag left as poisoned\n" + r.out());
    }

    /** The same conversions as a library: its flags come through convcert-host's shared memory (convcert_convert_flags). */
    @Test
    void asANativeLibraryItsFlagsTravelThroughTheNativeAbi(@TempDir Path out) throws Exception {
        Path library = library(out, "libgcc_float16.so");
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "riscv", "--level", "ci", "--adapter",
                "native:lib=" + library);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains(FlagsLaneTest.NOT_CERTIFIED), r.out());
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/gcc-float16/riscv")),
                Fixtures.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches"));
    }
}
