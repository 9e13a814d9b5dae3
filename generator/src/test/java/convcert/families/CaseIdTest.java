package convcert.families;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.TestProfile;
import convcert.cli.GenerateCommand;
import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClVectors;
import convcert.reference.Reference;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.spi.CaseKind;
import convcert.spi.CtrlState;
import convcert.spi.MemoryCase;
import convcert.vectors.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A case's identity: its kind read from the state word once, its name and key unchanged through the typed
 * identity, and its path the one the vector files have. The paths are checked against the committed golden
 * set and against sets the generator writes, not against the code that makes them.
 */
class CaseIdTest {

    @Test
    void theStateWordNamesTheKind() {
        assertEquals(CaseKind.BLOCK, CaseKind.of("block"));
        assertEquals(CaseKind.TENSOR, CaseKind.of("tensor"));
        assertEquals(CaseKind.MEMORY, CaseKind.of("memory"));
        for (String state : new String[] {"nosat", "sat", "wrap", "propagate", "sat-keepnan", "x3"}) {
            assertEquals(CaseKind.CONVERSION, CaseKind.of(state), state);
        }
        assertTrue(CaseKind.TENSOR.ofBlocks() && CaseKind.BLOCK.ofBlocks() && !CaseKind.MEMORY.ofBlocks());
    }

    @Test
    void everyCaseOfEveryProfileKeepsItsKeyThroughItsIdentity() throws Exception {
        for (String profile : profiles()) {
            for (CaseKey key : keys(TestProfile.reference(profile))) {
                CaseId id = CaseId.of(key);
                assertEquals(key, id.key(), key.name());
                assertEquals(key.name(), id.name());
                assertEquals(CaseKind.of(key.state()), id.kind(), key.name());
                assertTrue(id.path().startsWith(profile + "/"), id.path());
                switch (id) {
                    case CaseId.Conversion c -> assertEquals(key.ctrl(), c.ctrl().bits(), key.name());
                    case CaseId.Block b -> assertEquals(key.from() + "-" + key.to(), b.path().split("/")[1]);
                    case CaseId.Memory m -> assertInstanceOf(MemoryCase.class, m.operation());
                }
            }
        }
    }

    @Test
    void theCommittedGoldenSetLiesAtItsCasesPaths() throws Exception {
        Manifest manifest = Manifest.read(TestProfile.home().resolve("vectors").resolve(Manifest.FILE));
        int checked = 0;
        for (Manifest.Entry e : manifest.cases()) {
            CaseId id = new CaseId.Conversion(e.profile(), e.from(), e.to(), e.rounding(), e.state(), e.form(),
                    CtrlState.ofNames(e.ctrl()), "");
            assertEquals(e.name(), id.path());
            assertEquals(e.ctrl(), ((CaseId.Conversion) id).ctrl().names(), e.name() + " CTRL as the manifest spells it");
            for (Manifest.FileRef f : e.files().values()) {
                assertTrue(f.path().startsWith(id.path() + "."), f.path());
            }
            checked++;
        }
        assertTrue(checked > 300, "cases checked: " + checked);
    }

    @Test
    void everyGeneratedCaseLiesAtThePathOfACaseOfItsProfile(@TempDir Path dir) throws Exception {
        for (String profile : new String[] {"opencl", "ocp-mx"}) {
            Path out = dir.resolve(profile);
            assertEquals(0, new CommandLine(new GenerateCommand()).execute("--profile", profile, "--level", "quick",
                    "--format", "bin", "--out", out.toString()));
            Map<String, CaseId> byPath = new HashMap<>();
            for (CaseKey key : keys(TestProfile.reference(profile))) {
                byPath.putIfAbsent(CaseId.of(key).path(), CaseId.of(key));
            }
            Map<CaseKind, Integer> kinds = new HashMap<>();
            for (Manifest.Entry e : Manifest.read(out.resolve(Manifest.FILE)).cases()) {
                CaseId id = byPath.get(e.name());
                assertTrue(id != null, e.name() + " is the path of no case of " + profile);
                assertEquals(id.kind(), e.kind(), e.name());
                kinds.merge(e.kind(), 1, Integer::sum);
            }
            assertEquals(profile.equals("ocp-mx"), kinds.containsKey(CaseKind.BLOCK), profile + " blocks");
            assertEquals(profile.equals("ocp-mx"), kinds.containsKey(CaseKind.TENSOR), profile + " tensors");
            assertEquals(profile.equals("opencl"), kinds.containsKey(CaseKind.MEMORY), profile + " memory cases");
        }
    }

    /** Every case of a profile: conversions and blocks (CaseKeys), and memory cases where the profile has them. */
    private static List<CaseKey> keys(Reference reference) {
        List<CaseKey> keys = new ArrayList<>(CaseKeys.ofProfile(reference));
        OpenClTables tables = OpenClTables.attachedTo(reference.tables());
        if (tables != null) {
            for (MemoryCase c : OpenClVectors.cases(tables)) {
                keys.add(CaseKeys.ofMemory(reference.tables().profile(), c));
            }
        }
        return keys;
    }

    private static List<String> profiles() throws Exception {
        try (Stream<Path> folders = Files.list(TestProfile.home().resolve("spec-tables"))) {
            return folders.filter(p -> Files.isRegularFile(p.resolve("formats.csv"))).map(p -> p.getFileName().toString())
                    .sorted().toList();
        }
    }
}
