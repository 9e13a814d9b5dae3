package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The llvm profile through the native adapter: a shared library that widens LLVM's Float8E4M3 (IEEE-like E4M3,
 * bias 7, infinity 0x78) to float, as llvm.convert.from.arbitrary.fp does, declared by APFloat's name. The same
 * library built to flush E4M3's subnormals fails the case. (The Python helper, the ml_dtypes device and replay run
 * under llvm in PythonDeviceTest, MlDtypesTest and DeviceRecordingsTest.)
 */
class LlvmProfileTest {

    static final String LIBRARY = """
            #include <math.h>
            #include <stdint.h>
            #include <string.h>
            const char *convcert_capabilities(void) { return "Float8E4M3 float rn nosat\\n"; }
            int convcert_convert(const char *f, const char *t, const char *r, const char *s, const char *o,
                                 const char *c, const void *in, void *out, uint64_t n) {
                const uint8_t *x = in;
                for (uint64_t i = 0; i < n; i++) {
                    int e = (x[i] >> 3) & 15, m = x[i] & 7;
                    float v = e == 15 ? (m ? NAN : INFINITY) : ldexpf(e ? 8 + m : FLUSH ? 0 : m, (e ? e : 1) - 10);
                    v = x[i] & 0x80 ? -v : v;
                    memcpy((char *) out + 4 * i, &v, 4);
                }
                return 0;
            }
            const char *convcert_last_error(void) { return ""; }
            """;

    @ParameterizedTest(name = "FLUSH={0}: {1}")
    @CsvSource({"0, PASS, 0", "1, FAIL, 1"})
    void aNativeLibraryWideningFloat8E4M3CertifiesUnderLlvm(int flush, String status, int exit, @TempDir Path dir)
            throws Exception {
        Path source = Files.writeString(dir.resolve("e4m3.c"), LIBRARY);
        Path library = dir.resolve("libe4m3.so");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-shared", "-fPIC", "-DFLUSH=" + flush, "-o", library.toString(),
                source.toString(), "-lm").redirectErrorStream(true).start();
        assertEquals(0, gcc.waitFor(), new String(gcc.getInputStream().readAllBytes()));
        Fixtures.Run r = Fixtures.certify(dir.resolve("out"), "--profile", "llvm", "--level", "ci", "--pair",
                "fp8_e4m3:float", "--adapter", "native:lib=" + library);
        assertEquals(exit, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(dir.resolve("out")), "fp8_e4m3->float/rn-nosat");
        assertEquals(status, c.get("status").asText(), c.toString());
        if (flush == 1) {
            assertEquals(14, c.get("mismatches").asInt(), "the 14 nonzero subnormal codes: " + c);
        }
    }
}
