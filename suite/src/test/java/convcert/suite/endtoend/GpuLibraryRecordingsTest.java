package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * JAX/XLA (CPU and H200) and Triton (H200) recordings, replayed: the committed verdicts come back case by
 * case, so the findings of reports/devices/jax and reports/devices/triton stay reproducible without a GPU.
 */
class GpuLibraryRecordingsTest {

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> replayedVerdictsMatchTheCommittedReports() {
        record Run(String device, String recording, String profile, String folder, int exit) { }
        return Stream.of(new Run("jax", "recording-cpu", "cuda", "cpu-cuda", 1), new Run("jax", "recording-cpu", "rocm",
                        "cpu-rocm", 0), new Run("jax", "recording-cuda", "cuda", "cuda-cuda", 1),
                new Run("jax", "recording-cuda", "rocm", "cuda-rocm", 0), new Run("triton", "recording", "cuda", "cuda", 1))
                .map(run -> DynamicTest.dynamicTest(run.device() + " " + run.folder(), () -> {
                    Path reports = Fixtures.HOME.resolve("reports/devices").resolve(run.device());
                    Path out = temp.resolve(run.device() + "-" + run.folder());
                    Fixtures.Run r = Fixtures.certify(out, "--profile", run.profile(), "--level", "ci", "--adapter",
                            "replay:dir=" + reports.resolve(run.recording()));
                    assertEquals(run.exit(), r.exit(), r.out() + r.err());
                    Fixtures.sameCases(Fixtures.report(reports.resolve(run.folder())), Fixtures.report(out),
                            List.of("name", "status", "vectors", "mismatches", "kinds", "firstMismatches"));
                }));
    }
}
