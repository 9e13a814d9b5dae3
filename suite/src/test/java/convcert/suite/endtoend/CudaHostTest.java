package convcert.suite.endtoend;

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
                    Fixtures.HOME.resolve("suite/devices/cuda-host/dut.cu").toString()).inheritIO().start();
        } catch (java.io.IOException e) {
            nvcc = null;
        }
        assumeTrue(nvcc != null && nvcc.waitFor(120, TimeUnit.SECONDS) && nvcc.exitValue() == 0, "nvcc (the CUDA toolkit)");
        Fixtures.Run r = Fixtures.certify(out.resolve("r"), "--profile", "cuda", "--level", "ci", "--adapter",
                "process:cmd=" + dut);
        assertEquals(0, r.exit(), r.out() + r.err());
        Fixtures.sameCases(Fixtures.report(Fixtures.HOME.resolve("reports/devices/cuda-host/cuda")),
                Fixtures.report(out.resolve("r")), List.of("name", "status", "vectors", "mismatches"));
    }
}
