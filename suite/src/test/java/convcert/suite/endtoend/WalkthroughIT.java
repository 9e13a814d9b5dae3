package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's first hour, as a new user meets it: a clean clone of this checkout's commit, README's walkthrough
 * blocks run in it as they are (an IEEE converter in C, a CUDA recording, the RTL bench, Python), then
 * `./convcert dist` (one line naming the tarball, no colour codes; the tarball carries the Python package).
 * Only what is committed is in the clone: README and the code it runs cannot drift apart unnoticed.
 */
@Tag("slow") // a clone built from scratch: about 3 minutes on 2 cores
class WalkthroughIT {

    static final Path HOME = Path.of(System.getProperty("convcert.home"));

    @TempDir
    Path temp;

    record Result(int exit, String output) { }

    private Result bash(Path dir, String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script).directory(dir.toFile())
                .redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("CONVCERT_HOME");
        pb.environment().remove("CONVCERT_COMMAND");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), script);
        return new Result(p.exitValue(), output);
    }

    /** The bash blocks README marks with a walkthrough comment, in order. */
    static List<String> walkthroughs(String readme) {
        List<String> blocks = new ArrayList<>();
        List<String> lines = readme.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("<!-- walkthrough -->")) {
                assertEquals("```bash", lines.get(i + 1), "a walkthrough marker stands before a bash block");
                StringBuilder block = new StringBuilder();
                for (i += 2; !lines.get(i).equals("```"); i++) {
                    block.append(lines.get(i)).append('\n');
                }
                blocks.add(block.toString());
            }
        }
        return blocks;
    }

    @Test
    void readmesWalkthroughsRunFromACleanClone() throws Exception {
        Path clone = temp.resolve("clone");
        Result cloned = bash(temp, "git clone -q " + HOME + " clone");
        assertEquals(0, cloned.exit(), cloned.output());
        List<String> blocks = walkthroughs(Files.readString(clone.resolve("README.md")));
        assertEquals(4, blocks.size(), "README's four walkthroughs");
        List<String> expected = List.of("PASS: 1 cases", "PASS: 186 cases", "16 cases passed, 0 failed",
                "[56, 126, 127]\nfloat -> bfloat16 rn: every input agrees with the reference");
        for (int k = 0; k < blocks.size(); k++) {
            if (blocks.get(k).contains("run.sh check") && !RtlTest.verilator()) {
                continue; // said by RtlTest, which skips the same way without verilator
            }
            Result r = bash(clone, blocks.get(k));
            assertEquals(0, r.exit(), blocks.get(k) + r.output());
            assertTrue(r.output().contains(expected.get(k)), blocks.get(k) + r.output());
        }

        Result dist = bash(clone, "./convcert dist");
        assertEquals(0, dist.exit(), dist.output());
        List<String> lines = dist.output().lines().toList();
        assertEquals(1, lines.size(), dist.output());
        assertTrue(!dist.output().contains("\u001b"), "no colour codes: " + dist.output());
        Path tarball = Path.of(lines.get(0).split(" ")[0]);
        assertTrue(Files.isRegularFile(tarball), dist.output());
        Result listing = bash(clone, "tar tzf " + tarball);
        String root = tarball.getFileName().toString().replace(".tar.gz", "");
        for (String file : List.of("bin/convcert", "suite/python/convcert/__init__.py", "suite/python/ORACLE.md",
                "spec-tables/ieee754/formats.csv", "suite/devices/rtl/golden_tb.sv")) {
            assertTrue(listing.output().lines().anyMatch((root + "/" + file)::equals), file + " in " + tarball);
        }
    }
}
