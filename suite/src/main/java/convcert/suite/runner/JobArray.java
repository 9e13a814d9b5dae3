package convcert.suite.runner;

import convcert.common.UsageException;
import java.util.Map;

/**
 * {@code --shard auto}: this shard's place in a job array, from the variables of the engine running it,
 * so one command line serves every task of a farm. Slurm job arrays (SLURM_ARRAY_TASK_ID counted from
 * SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT), GitLab parallel jobs (CI_NODE_INDEX from 1,
 * CI_NODE_TOTAL), Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX from 0; the count, which the pod does
 * not see, given as {@code --shard auto/N}).
 *
 * @param shard 1 to shards
 */
public record JobArray(int shard, int shards) {

    /** Resolves "auto" or "auto/N" against the environment; a one-line error where nothing applies. */
    public static JobArray resolve(String spec, Map<String, String> env) {
        Integer count = null;
        if (spec.startsWith("auto/")) {
            count = positive(spec.substring(5), "--shard " + spec + ": the count");
        }
        if (env.containsKey("SLURM_ARRAY_TASK_ID")) {
            int id = number(env, "SLURM_ARRAY_TASK_ID");
            int min = env.containsKey("SLURM_ARRAY_TASK_MIN") ? number(env, "SLURM_ARRAY_TASK_MIN") : 0;
            int n = count != null ? count : positive(required(env, "SLURM_ARRAY_TASK_COUNT"), "SLURM_ARRAY_TASK_COUNT");
            return checked((long) id - min + 1, n, "SLURM_ARRAY_TASK_ID=" + id + ", SLURM_ARRAY_TASK_MIN=" + min);
        }
        if (env.containsKey("CI_NODE_INDEX")) {
            int n = count != null ? count : positive(required(env, "CI_NODE_TOTAL"), "CI_NODE_TOTAL");
            return checked(number(env, "CI_NODE_INDEX"), n, "CI_NODE_INDEX=" + env.get("CI_NODE_INDEX"));
        }
        if (env.containsKey("JOB_COMPLETION_INDEX")) {
            if (count == null) {
                throw new UsageException("--shard auto: a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) does not see its "
                        + "count; give it as --shard auto/N (the Job's completions)");
            }
            return checked((long) number(env, "JOB_COMPLETION_INDEX") + 1, count, "JOB_COMPLETION_INDEX="
                    + env.get("JOB_COMPLETION_INDEX"));
        }
        throw new UsageException("--shard " + spec + ": no job-array variables (SLURM_ARRAY_TASK_ID, CI_NODE_INDEX or "
                + "JOB_COMPLETION_INDEX); give --shard K/N");
    }

    /** The shard, computed in 64 bits from 32-bit variables so that no difference wraps into range. */
    private static JobArray checked(long shard, int shards, String source) {
        if (shard < 1 || shard > shards) {
            throw new UsageException("--shard auto: " + source + " is shard " + shard + " of " + shards
                    + ", outside 1 to " + shards);
        }
        return new JobArray((int) shard, shards);
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null) {
            throw new UsageException("--shard auto: " + name + " is not set (give the count as --shard auto/N)");
        }
        return value;
    }

    private static int number(Map<String, String> env, String name) {
        try {
            return Integer.parseInt(env.get(name).strip());
        } catch (NumberFormatException e) {
            throw new UsageException("--shard auto: " + name + "='" + env.get(name) + "' is not a number");
        }
    }

    private static int positive(String text, String what) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(what + " '" + text + "' is not a positive number");
    }
}
