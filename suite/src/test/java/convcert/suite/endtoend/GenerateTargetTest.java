package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.common.Sha256;
import convcert.vectors.Manifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where generate writes: to --out, or to a folder of its own in the current folder; the checkout's committed
 * golden set only with --update-golden and then whole; --pair gives exactly those conversions, no blocks.
 */
class GenerateTargetTest {

    private static final Path COMMITTED = Fixtures.HOME.resolve("vectors").resolve(Manifest.FILE);

    private static String committed() throws Exception {
        return Sha256.of(Files.readAllBytes(COMMITTED));
    }

    @Test
    void withoutOutTheVectorsGoToAFolderOfTheirOwnHere(@TempDir Path cwd) throws Exception {
        String before = committed();
        Process p = new ProcessBuilder(IsolationTest.launcherCommand("generate", "--pair", "float:half", "--level", "quick",
                "--format", "bin")).directory(cwd.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), text);
        Manifest m = Manifest.read(cwd.resolve("vectors-ascend-c-quick").resolve(Manifest.FILE));
        assertTrue(m.cases().stream().allMatch(e -> e.from().equals("float") && e.to().equals("half")), m.cases().toString());
        assertEquals(before, committed(), "the committed set is untouched");
    }

    @Test
    void theCommittedSetIsRewrittenOnlyWhenAskedAndThenWhole() throws Exception {
        String before = committed();
        Fixtures.Run r = Fixtures.run("", "generate", "--pair", "float:fp8_e4m3fn", "--format", "memh", "--out",
                Fixtures.HOME.resolve("vectors").toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("is the checkout's committed golden set; pass --update-golden"), r.err());
        r = Fixtures.run("", "generate", "--update-golden", "--pair", "float:fp8_e4m3fn");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("--update-golden rewrites the whole committed set"), r.err());
        r = Fixtures.run("", "generate", "--update-golden", "--profile", "cuda");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("is not profile cuda's"), r.err());
        assertEquals(before, committed(), "nothing written");
    }

    @Test
    void aPairSelectsExactlyThatPairInAProfileWithBlocks(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.run("", "generate", "--profile", "cuda", "--pair", "float:e4m3fn", "--level", "quick",
                "--format", "bin", "--out", out.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        Manifest m = Manifest.read(out.resolve(Manifest.FILE));
        assertTrue(!m.cases().isEmpty() && m.cases().stream().allMatch(e -> e.from().equals("float")
                && e.to().startsWith("fp8_e4m3")), m.cases().stream().map(Manifest.Entry::name).toList().toString());
    }
}
