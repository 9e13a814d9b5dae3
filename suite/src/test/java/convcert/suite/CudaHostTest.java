package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUDA's conversion functions run on the host (suite/devices/cuda-host), rebuilt where nvcc is installed:
 * the verdicts are the committed ones case by case.
 */
class CudaHostTest {

    @Test
    void cudasHostConversionsAgreeAsCommitted(@TempDir Path out) throws Exception {
        Path dut = out.resolve("cuda_host_dut");
        Process nvcc;
        try {
            nvcc = new ProcessBuilder("nvcc", "-O2", "-o", dut.toString(),
                    CertifyTest.HOME.resolve("suite/devices/cuda-host/dut.cu").toString()).inheritIO().start();
        } catch (java.io.IOException e) {
            nvcc = null;
        }
        assumeTrue(nvcc != null && nvcc.waitFor(120, TimeUnit.SECONDS) && nvcc.exitValue() == 0, "nvcc (the CUDA toolkit)");
        MainTest.Run r = CertifyTest.certify(out.resolve("r"), "--profile", "cuda", "--level", "ci", "--adapter",
                "process:cmd=" + dut);
        assertEquals(0, r.exit(), r.out() + r.err());
        CertifyTest.sameCases(CertifyTest.report(CertifyTest.HOME.resolve("reports/devices/cuda-host/cuda")),
                CertifyTest.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches"));
    }
}
