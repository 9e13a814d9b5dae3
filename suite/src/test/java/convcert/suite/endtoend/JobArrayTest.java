package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.common.UsageException;
import convcert.suite.runner.JobArray;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --shard auto: each farm engine's job-array variables give the shard; what is missing or wrong is a one-line error. */
class JobArrayTest {

    @Test
    void slurmArraysCountFromTheirFirstTaskId() {
        assertEquals(new JobArray(1, 4), JobArray.resolve("auto", Map.of("SLURM_ARRAY_TASK_ID", "0",
                "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_COUNT", "4")));
        assertEquals(new JobArray(3, 4), JobArray.resolve("auto", Map.of("SLURM_ARRAY_TASK_ID", "7",
                "SLURM_ARRAY_TASK_MIN", "5", "SLURM_ARRAY_TASK_COUNT", "4")), "sbatch --array=5-8");
    }

    @Test
    void gitlabNodesCountFromOneAndKubernetesIndexesFromZeroWithTheCountGiven() {
        assertEquals(new JobArray(2, 3), JobArray.resolve("auto", Map.of("CI_NODE_INDEX", "2", "CI_NODE_TOTAL", "3")));
        assertEquals(new JobArray(1, 8), JobArray.resolve("auto/8", Map.of("JOB_COMPLETION_INDEX", "0")));
        UsageException k8s = assertThrows(UsageException.class, () -> JobArray.resolve("auto",
                Map.of("JOB_COMPLETION_INDEX", "0")));
        assertTrue(k8s.getMessage().contains("--shard auto/N"), k8s.getMessage());
    }

    @Test
    void noVariablesOrAnIndexBeyondTheCountIsAUsageError() {
        UsageException none = assertThrows(UsageException.class, () -> JobArray.resolve("auto", Map.of("PATH", "/bin")));
        assertTrue(none.getMessage().contains("no job-array variables"), none.getMessage());
        UsageException beyond = assertThrows(UsageException.class, () -> JobArray.resolve("auto", Map.of(
                "SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4")));
        assertTrue(beyond.getMessage().contains("shard 5 of 4"), beyond.getMessage());
        UsageException garbage = assertThrows(UsageException.class, () -> JobArray.resolve("auto", Map.of(
                "CI_NODE_INDEX", "two", "CI_NODE_TOTAL", "3")));
        assertTrue(garbage.getMessage().contains("'two' is not a number"), garbage.getMessage());
        assertThrows(UsageException.class, () -> JobArray.resolve("auto/0", Map.of("JOB_COMPLETION_INDEX", "0")));
    }

    /** Task ids at the ends of 32 bits: no difference wraps into range (-2^31 - (2^31 - 1) + 1 is shard 2 in 32 bits). */
    @Test
    void taskIdsAtTheEndsOfTheirRangeAreOutOfRangeNotWrapped() {
        UsageException wrapped = assertThrows(UsageException.class, () -> JobArray.resolve("auto", Map.of(
                "SLURM_ARRAY_TASK_ID", "-2147483648", "SLURM_ARRAY_TASK_MIN", "2147483647", "SLURM_ARRAY_TASK_COUNT", "4")));
        assertTrue(wrapped.getMessage().contains("shard -4294967294 of 4"), wrapped.getMessage());
        assertThrows(UsageException.class, () -> JobArray.resolve("auto/4", Map.of("JOB_COMPLETION_INDEX", "2147483647")));
        assertThrows(UsageException.class, () -> JobArray.resolve("auto", Map.of(
                "SLURM_ARRAY_TASK_ID", "99999999999", "SLURM_ARRAY_TASK_COUNT", "4")));
    }

    /** On the command line: with no job array around, --shard auto is exit 2 with the one line. */
    @Test
    void certifyRefusesAutoOutsideAJobArray() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("SLURM_ARRAY_TASK_ID") == null
                && System.getenv("CI_NODE_INDEX") == null && System.getenv("JOB_COMPLETION_INDEX") == null);
        Fixtures.Run r = Fixtures.run("", "certify", "--profile", "cuda", "--exhaustive", "--pair", "float:half",
                "--shard", "auto", "--adapter", "reference");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("no job-array variables"), r.err());
    }
}
