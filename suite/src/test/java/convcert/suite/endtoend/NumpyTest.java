package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * numpy's own float16 and float32 casts (suite/devices/numpy/dut.py) certified live against the cuda
 * profile where numpy is installed, with the committed report's verdicts (reports/devices/numpy/cuda).
 */
class NumpyTest {

    @Test
    void numpysHalfCastsRoundOnceFromFloatAndDouble(@TempDir Path out) throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import numpy").start();
        assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3 with numpy");
        Fixtures.Run r = Fixtures.certify(out, "--profile", "cuda", "--level", "ci", "--adapter",
                "process:cmd=python3 " + Fixtures.HOME.resolve("suite/devices/numpy/dut.py"));
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode now = Fixtures.report(out);
        JsonNode committed = Fixtures.report(Fixtures.HOME.resolve("reports/devices/numpy/cuda"));
        assertEquals(committed.get("summary").get("passed"), now.get("summary").get("passed"));
        assertEquals("PASS", Fixtures.find(now, "double->half/rn-nosat").get("status").asText());
    }
}
