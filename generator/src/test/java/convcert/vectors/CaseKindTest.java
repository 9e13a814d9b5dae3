package convcert.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.reference.CaseKind;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A case's kind is read from its state word once: "block" and "memory" name the two case families beside
 * conversions, every other state is a conversion's saturation state. Checked against the names of the cases
 * a generated set holds, which the kinds must agree with.
 */
class CaseKindTest {

    @Test
    void theStateWordNamesTheKind() {
        assertEquals(CaseKind.BLOCK, CaseKind.of("block"));
        assertEquals(CaseKind.MEMORY, CaseKind.of("memory"));
        for (String state : new String[] {"nosat", "sat", "wrap", "propagate", "sat-keepnan", "x3"}) {
            assertEquals(CaseKind.CONVERSION, CaseKind.of(state), state);
        }
        assertEquals("block", BlockVectorFiles.STATE);
    }

    @Test
    void everyGeneratedCaseHasTheKindItsNameSays(@TempDir Path dir) throws Exception {
        for (String profile : new String[] {"opencl", "ocp-mx"}) {
            Path out = dir.resolve(profile);
            assertEquals(0, GenerateCommandTest.generate("--profile", profile, "--level", "quick", "--format", "bin",
                    "--out", out.toString()).exit());
            int blocks = 0;
            int memory = 0;
            for (Manifest.Entry e : Manifest.read(out.resolve(Manifest.FILE)).cases()) {
                CaseKind named = e.name().endsWith("-block") ? CaseKind.BLOCK
                        : e.name().startsWith(profile + "/memory/") ? CaseKind.MEMORY : CaseKind.CONVERSION;
                assertEquals(named, e.kind(), e.name());
                blocks += e.kind() == CaseKind.BLOCK ? 1 : 0;
                memory += e.kind() == CaseKind.MEMORY ? 1 : 0;
            }
            assertEquals(profile.equals("ocp-mx"), blocks > 0, profile + " blocks");
            assertEquals(profile.equals("opencl"), memory > 0, profile + " memory cases");
        }
    }
}
