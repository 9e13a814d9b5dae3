package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUTLASS's float_ue4m3_t (suite/devices/cutlass), recorded on the host and on an H200 and replayed. The
 * host drops a negative value's sign, which passes only under fnu-negative=absolute; the GPU keeps it as
 * an eighth bit, which no reading allows. Where nvcc and a CUTLASS
 * checkout ($CUTLASS) are present, the library is rebuilt and gives the committed verdicts.
 */
class CutlassUe4m3Test {

    static final Path REPORTS = Fixtures.HOME.resolve("reports/devices/cutlass");

    static Fixtures.Run replay(Path out, String recording, String negative) {
        return Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--adapter", "replay:dir="
                + REPORTS.resolve(recording), "--decision", "fnu-negative=" + negative);
    }

    static String status(Path out, String name) throws Exception {
        return Fixtures.find(Fixtures.report(out), name).get("status").asText();
    }

    @Test
    void theHostDropsTheSignAndPassesOnlyUnderAbsolute(@TempDir Path out) throws Exception {
        Fixtures.Run zero = replay(out.resolve("zero"), "recording-host", "zero");
        assertEquals(1, zero.exit(), zero.out() + zero.err());
        assertEquals("FAIL", status(out.resolve("zero"), "float->ue4m3/rn-sat"));
        assertEquals("PASS", status(out.resolve("zero"), "ue4m3->float/rn-nosat"));
        // -infinity: 0 under the default reading, 448 (its magnitude's) from CUTLASS
        assertTrue(zero.out().contains("input 0xFF800000 (-inf) [1.11111111.00000000000000000000000]: expected 0x00 (0.0), "
                + "actual 0x7E (448.0)"), zero.out());
        assertTrue(zero.out().contains("fnu-negative-absolute"), "the diagnosis names the reading\n" + zero.out());
        Fixtures.Run absolute = replay(out.resolve("absolute"), "recording-host", "absolute");
        assertEquals(0, absolute.exit(), absolute.out() + absolute.err());
        Fixtures.sameCases(Fixtures.report(REPORTS.resolve("host")), Fixtures.report(out.resolve("absolute")),
                List.of("name", "status", "vectors", "mismatches"));
    }

    @Test
    void theGpuKeepsTheSignAboveTheSevenBitsUnderEveryReading(@TempDir Path out) throws Exception {
        for (String negative : List.of("zero", "nan", "absolute")) {
            Fixtures.Run r = replay(out.resolve(negative), "recording-gpu", negative);
            assertEquals(1, r.exit(), r.out() + r.err());
            assertEquals("FAIL", status(out.resolve(negative), "float->ue4m3/rn-sat"));
            assertEquals("PASS", status(out.resolve(negative), "ue4m3->float/rn-nosat"));
            // -0.0 and -infinity as the signed E4M3's codes (-0, -448): bit 7 set, outside the type's seven bits
            String first = Fixtures.find(Fixtures.report(out.resolve(negative)), "float->ue4m3/rn-sat").get("firstMismatches").toString();
            assertTrue(first.contains("input 0x80000000 (-0.0)") && first.contains("actual 0x80 (not a 7-bit ue4m3 value)"), first);
            assertTrue(first.contains("input 0xFF800000 (-inf)") && first.contains("actual 0xFE (not a 7-bit ue4m3 value)"), first);
            assertTrue(r.out().contains("failing cases by diagnosis: fnu-sign-kept 1"), "the diagnosis names the fault\n" + r.out());
        }
        Fixtures.sameCases(Fixtures.report(REPORTS.resolve("gpu")), Fixtures.report(out.resolve("zero")),
                List.of("name", "status", "vectors", "mismatches"));
    }

    /**
     * The bytes a signed value leaves in a float_ue4m3_t on the GPU (0x80-0xFF) read back, recorded on an H100: the
     * GPU's cvt.rn.f16x2.e4m3x2 reads bit 7 as a sign, the host's conversion ignores it; 0xFF is NaN to both.
     */
    @Test
    void bit7ReadsAsASignOnTheGpuAndIsIgnoredOnTheHost() throws Exception {
        Path codes = REPORTS.resolve("codes-80-ff");
        byte[] in = Files.readAllBytes(codes.resolve("in.bin"));
        java.nio.FloatBuffer host = java.nio.ByteBuffer.wrap(Files.readAllBytes(codes.resolve("host.out.bin")))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        java.nio.FloatBuffer gpu = java.nio.ByteBuffer.wrap(Files.readAllBytes(codes.resolve("gpu.out.bin")))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        assertEquals(128, in.length);
        for (int k = 0; k < 128; k++) {
            int code = in[k] & 0xFF;
            assertEquals(0x80 + k, code);
            int m = code & 0x7F; // the magnitude's code: E4M3 with bias 7, subnormals below 2^-6
            double magnitude = m == 0x7F ? Double.NaN : (m >> 3) == 0 ? (m & 7) / 8.0 * Math.pow(2, -6)
                    : (1 + (m & 7) / 8.0) * Math.pow(2, (m >> 3) - 7);
            if (m == 0x7F) {
                assertTrue(Float.isNaN(host.get(k)) && Float.isNaN(gpu.get(k)), "0xFF");
            } else {
                assertEquals(Float.floatToRawIntBits((float) magnitude), Float.floatToRawIntBits(host.get(k)), "host " + code);
                assertEquals(Float.floatToRawIntBits((float) -magnitude), Float.floatToRawIntBits(gpu.get(k)), "gpu " + code);
            }
        }
    }

    @Test
    void theLibraryRebuiltGivesTheCommittedVerdicts(@TempDir Path out) throws Exception {
        String cutlass = System.getenv("CUTLASS");
        assumeTrue(cutlass != null && Files.isRegularFile(Path.of(cutlass, "include/cutlass/float8.h")),
                "CUTLASS: a checkout of NVIDIA/cutlass");
        Path lib = out.resolve("libcutlass_ue4m3.so");
        Process nvcc;
        try {
            nvcc = new ProcessBuilder("nvcc", "-O2", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", "-I" + cutlass + "/include",
                    "-I" + Fixtures.HOME.resolve("suite/native"), "-o", lib.toString(),
                    Fixtures.HOME.resolve("suite/devices/cutlass/ue4m3.cu").toString()).inheritIO().start();
        } catch (java.io.IOException e) {
            nvcc = null;
        }
        assumeTrue(nvcc != null && nvcc.waitFor(300, TimeUnit.SECONDS) && nvcc.exitValue() == 0, "nvcc (the CUDA toolkit)");
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "cuda", "--level", "ci", "--adapter",
                "native:lib=" + lib, "--decision", "fnu-negative=absolute");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode committed = Fixtures.report(REPORTS.resolve("host"));
        Fixtures.sameCases(committed, Fixtures.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches"));
    }
}
