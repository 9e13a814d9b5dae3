package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * PyTorch's casts recorded on a CPU and an H200 (reports/devices/pytorch): replaying the recordings gives
 * the committed verdicts case by case, and its float64 casts are diagnosed as rounding through float32.
 */
class PytorchRecordingsTest {

    static final Path PYTORCH = CertifyTest.HOME.resolve("reports/devices/pytorch");

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> replayedVerdictsMatchTheCommittedReports() {
        return Stream.of("cpu", "cuda").flatMap(device -> Stream.of("cuda", "rocm").map(profile -> DynamicTest.dynamicTest(
                "torch " + device + " under " + profile, () -> {
                    String folder = device + "-" + profile;
                    MainTest.Run r = CertifyTest.certify(temp.resolve(folder), "--profile", profile, "--level", "ci",
                            "--adapter", "replay:dir=" + PYTORCH.resolve("recording-" + device));
                    assertEquals(profile.equals("cuda") ? 1 : 0, r.exit(), r.out() + r.err());
                    JsonNode now = CertifyTest.report(temp.resolve(folder));
                    CertifyTest.sameCases(CertifyTest.report(PYTORCH.resolve(folder)), now,
                            List.of("name", "status", "vectors", "mismatches", "kinds"));
                    if (profile.equals("cuda")) {
                        for (String c : List.of("double->half/rn-nosat", "double->bfloat16/rn-nosat",
                                "double->fp8_e4m3fn/rn-nosat", "double->fp8_e5m2/rn-nosat")) {
                            JsonNode d = CertifyTest.find(now, c).get("diagnosisData");
                            assertTrue(d.get("complete").asBoolean(), c + " " + d);
                            assertEquals("via-float", d.get("faults").get(0).get("fault").asText(), c);
                        }
                    }
                })));
    }
}
