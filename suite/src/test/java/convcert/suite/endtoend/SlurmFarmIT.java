package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A farm for real: a single-node Slurm cluster from Debian's packages (docs/farms/single-node-slurm.sh,
 * started here; .ci/run installs slurm-wlm and munge), the job array of docs/farms/slurm-array.sbatch
 * certifying the 4 shards of an exhaustive case with --shard auto, and its dependent merge job
 * (slurm-merge.sbatch) as the gate: a failing shard fails the merge. Needs root or sudo (the daemons)
 * and the packages; skipped, and says so, without them.
 */
@Tag("slow") // four 2^30-input shards of the jdk adapter, two at a time: about 40 s on 2 cores
class SlurmFarmIT {

    static final Path DIST = Path.of(System.getProperty("convcert.dist"));
    static final Path FARMS = Fixtures.HOME.resolve("docs/farms");

    static Path cluster;
    static String slurmConf;
    /** How the daemons are started: directly as root, or through sudo. */
    static List<String> asRoot;

    @BeforeAll
    static void startCluster(@TempDir Path dir) throws Exception {
        boolean root = "0".equals(run(List.of("id", "-u"), null, null).strip());
        boolean sudo = !root && run(List.of("sh", "-c", "sudo -n true 2>/dev/null && echo yes || true"), null, null)
                .contains("yes");
        assumeTrue(root || sudo, "the Slurm daemons need root (or sudo without a password)");
        asRoot = root ? List.of() : List.of("sudo", "-n", "env", "PATH=/usr/sbin:/usr/bin:/sbin:/bin");
        for (String tool : List.of("sbatch", "slurmctld", "slurmd", "munged")) {
            assumeTrue(!run(List.of("sh", "-c", "PATH=$PATH:/usr/sbin:/sbin command -v " + tool + " || true"), null, null)
                    .isBlank(), tool + " (Debian's slurm-wlm and munge; .ci/run installs them)");
        }
        cluster = dir.resolve("slurm");
        String up = run(script("start"), null, null);
        assertTrue(up.contains("export SLURM_CONF="), up);
        slurmConf = up.substring(up.indexOf("export SLURM_CONF=") + 18).strip();
    }

    private static List<String> script(String action) {
        List<String> command = new ArrayList<>(asRoot);
        command.addAll(List.of(FARMS.resolve("single-node-slurm.sh").toString(), action, cluster.toString()));
        return command;
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            run(script("stop"), null, null);
        }
    }

    /**
     * Submits the array (one CPU a task, so that two shards run at once here), then the merge depending
     * on it; returns the merge job's exit code (sbatch --wait). The tasks get the submitting environment.
     */
    private static int farm(Path work, Map<String, String> env) throws Exception {
        String job = run(List.of("sbatch", "--parsable", "--cpus-per-task=1", "--chdir", work.toString(),
                FARMS.resolve("slurm-array.sbatch").toString()), work, null, env).strip();
        assertTrue(job.matches("\\d+"), "sbatch printed " + job);
        List<String> merge = List.of("sbatch", "--wait", "--dependency=afterany:" + job, "--chdir", work.toString(),
                FARMS.resolve("slurm-merge.sbatch").toString());
        int[] exit = new int[1];
        run(merge, work, exit, env);
        return exit[0];
    }

    /**
     * The JDK's float->half (its intrinsic: fast enough for a test farm of all 2^32 inputs) certified
     * against the canonical-NaN reading with NaNs compared exactly (decisions nan-encoding=canonical,
     * nan-comparison=exact): the JDK keeps a NaN's sign and payload, so the shards holding NaNs with
     * either, 2 (positive) and 4 (negative), fail; 1 and 3 pass, each knowing its place from
     * SLURM_ARRAY_TASK_ID; the merge, run after the whole array, fails the gate.
     */
    @Test
    void aFailingShardOfAJobArrayFailsTheMergedGate(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("farm"));
        int exit = farm(work, Map.of("CONVCERT_ADAPTER", "jdk", "CONVCERT_OPTIONS",
                "--decision nan-encoding=canonical --decision nan-comparison=exact"));
        assertEquals(1, exit, "shards 2 and 4 fail the merged gate\n" + log(work));
        for (int k = 1; k <= 4; k++) {
            String shard = Files.readString(work.resolve("reports/shard-" + k + "/conformance.json"));
            assertTrue(shard.contains("\"shard\" : \"" + k + "/4\""), "shard " + k + " is " + k + "/4 by SLURM_ARRAY_TASK_ID");
            assertTrue(shard.contains(k % 2 == 0 ? "\"FAIL\"" : "\"PASS\""), "shard " + k + "\n" + log(work));
        }
        String merged = Files.readString(work.resolve("reports/merged/conformance.json"));
        assertTrue(merged.contains("\"vectors\" : 4294967296") && merged.contains("\"FAIL\""), merged);
    }

    private static String log(Path work) throws IOException {
        StringBuilder s = new StringBuilder();
        try (var logs = Files.list(work.resolve("reports"))) {
            for (Path p : logs.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList()) {
                s.append("== ").append(p.getFileName()).append('\n').append(Files.readString(p));
            }
        }
        return s.toString();
    }

    private static String run(List<String> command, Path dir, int[] exit) throws Exception {
        return run(command, dir, exit, Map.of());
    }

    /** Runs a command with SLURM_CONF, more, and the distribution's convcert on PATH; its output; exit into exit[0], else must be 0. */
    private static String run(List<String> command, Path dir, int[] exit, Map<String, String> more) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
            Files.createDirectories(dir.resolve("reports"));
        }
        Map<String, String> env = pb.environment();
        if (slurmConf != null) {
            env.put("SLURM_CONF", slurmConf);
        }
        env.put("PATH", DIST.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(more);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), String.join(" ", command) + " did not finish");
        if (exit != null) {
            exit[0] = p.exitValue();
        } else {
            assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        }
        return out;
    }
}
