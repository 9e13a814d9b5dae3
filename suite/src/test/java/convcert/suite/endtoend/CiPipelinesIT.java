package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipelines of docs/ci/ run as a user's repository would run them, as far as a machine without
 * GitHub or GitLab allows: a temporary "user repository" holds a C converter (src/dut.c), the
 * distribution this checkout built is fetched from a file: URL with its sha256 checked, and every
 * job's shell steps run in order in a workspace of their own, with the CI's artifacts, matrix or
 * parallel index, step conditions and PATH additions played by this test. The actions it plays
 * (checkout, setup-java, cache, artifacts, the JUnit report) are the only ones the examples may use.
 * A correct converter passes the gate; one wrong bit in shard 1 fails shard 1 and the merge, and the
 * JUnit files the CI's test view reads name every case's shard.
 */
@Tag("slow") // eight 2^30-input shards: about four minutes on 2 cores
class CiPipelinesIT {

    static final Path DIST = Path.of(System.getProperty("convcert.dist"));
    static final Path TARBALL = DIST.getParent().getParent().resolve(DIST.getFileName() + ".tar.gz");

    @TempDir
    Path temp;

    /** What a pipeline did: each job instance's success, and the JUnit files handed to the CI's test view. */
    record Outcome(Map<String, Boolean> jobs, List<Path> junit, String log) {
    }

    /** The user's repository: the example C converter, or the same with float->half wrong for one input. */
    private Path userRepository(boolean oneWrongBit) throws IOException {
        Path repo = Files.createDirectories(temp.resolve("user-repo/src"));
        String dut = Files.readString(Fixtures.HOME.resolve("suite/devices/example-c/dut.c"));
        if (oneWrongBit) {
            String right = "BATCH_LOOP(batch_f2h, uint32_t, uint16_t, float_to_half_rn)";
            assertTrue(dut.contains(right));
            dut = dut.replace(right, "static uint16_t f2h_wrong(uint32_t x) { return float_to_half_rn(x) ^ (x == 0x3F800001u); }\n"
                    + "BATCH_LOOP(batch_f2h, uint32_t, uint16_t, f2h_wrong)");
        }
        Files.writeString(repo.resolve("dut.c"), dut);
        return repo.getParent();
    }

    private Map<String, String> fetchedFrom() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(TARBALL));
        return Map.of("CONVCERT_URL", TARBALL.toUri().toString(), "CONVCERT_SHA256", HexFormat.of().formatHex(digest));
    }

    @Test
    void githubActionsPassesACorrectConverter() throws Exception {
        Outcome o = new GitHubActions(CiExamplesTest.yaml("github-actions.yml"), userRepository(false), fetchedFrom()).run();
        assertTrue(o.jobs().values().stream().allMatch(ok -> ok), o.jobs() + "\n" + o.log());
        assertEquals(6, o.jobs().size(), "fetch, 4 shards, merge: " + o.jobs());
        assertShardsNamed(o.junit(), 0);
        assertTrue(Files.isRegularFile(temp.resolve("artifacts/conformance/conformance.html")), "the merged report is kept");
    }

    @Test
    void gitlabCiFailsTheGateOnOneWrongBit() throws Exception {
        Outcome o = new GitLabCi(CiExamplesTest.yaml("gitlab-ci.yml"), userRepository(true), fetchedFrom()).run();
        assertEquals(Map.of("fetch", true, "certify 1/4", false, "certify 2/4", true, "certify 3/4", true,
                "certify 4/4", true, "merge", false), o.jobs(), o.log());
        assertShardsNamed(o.junit(), 1);
        assertTrue(o.log().contains("float->half/rn-nosat [form nosat, CTRL 60=0,59=0,50=0,48=1]: 1 of 4294967296 vectors differ"),
                "the merge sees the one wrong vector of all 2^32\n" + o.log());
    }

    /** Four JUnit files, one per shard, whose test names all differ and name their shard; failures in shard 1 only. */
    private static void assertShardsNamed(List<Path> junit, int failures) throws IOException {
        assertEquals(4, junit.size(), junit.toString());
        TreeSet<String> names = new TreeSet<>();
        int failed = 0;
        for (Path xml : junit) {
            String text = Files.readString(xml);
            Matcher m = Pattern.compile("<testcase classname=\"([^\"]*)\" name=\"([^\"]*)\"").matcher(text);
            while (m.find()) {
                assertTrue(m.group(2).matches(".* \\[shard [1-4]/4]"), m.group(2));
                assertTrue(names.add(m.group(1) + " " + m.group(2)), "two shards publish " + m.group(2));
            }
            if (text.contains("<failure")) {
                failed++;
                assertTrue(text.contains("[shard 1/4]"), "the failure is shard 1's");
            }
        }
        assertEquals(4, names.size());
        assertEquals(failures, failed);
    }

    // ---- what both CI services do for a job: a workspace, artifacts, shell steps, globs ----

    abstract class Ci {
        final Map<String, String> variables = new LinkedHashMap<>();
        final Map<String, Boolean> jobs = new LinkedHashMap<>();
        final List<Path> junit = new ArrayList<>();
        final StringBuilder log = new StringBuilder();
        final Path repo;
        final Path artifacts = temp.resolve("artifacts");

        Ci(JsonNode declared, Path repo, Map<String, String> overrides) {
            this.repo = repo;
            declared.properties().forEach(e -> variables.put(e.getKey(), e.getValue().asText()));
            assertEquals(convcert.suite.model.Provenance.VERSION, variables.get("CONVCERT_VERSION"),
                    "the example fetches this version of convcert");
            assertTrue(overrides.keySet().stream().allMatch(variables::containsKey), "the example declares " + overrides.keySet());
            variables.putAll(overrides);
        }

        Path workspace(String job, boolean checkout) throws IOException {
            Path w = temp.resolve("jobs").resolve(job.replaceAll("[^A-Za-z0-9]", "_"));
            Files.createDirectories(w);
            if (checkout) {
                copy(repo, w);
            }
            return w;
        }

        /** Runs a shell script; true when it exits 0. */
        boolean shell(String script, Path dir, Map<String, String> env, String... shellFlags) throws Exception {
            List<String> command = new ArrayList<>(List.of("bash", "--noprofile", "--norc"));
            command.addAll(List.of(shellFlags));
            command.addAll(List.of("-c", script));
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            log.append("$ ").append(script.strip()).append('\n').append(out).append("(exit ").append(exit).append(")\n");
            return exit == 0;
        }

        Map<String, String> baseEnvironment() {
            Map<String, String> env = new LinkedHashMap<>(variables);
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
            env.put("HOME", System.getProperty("user.home"));
            return env;
        }

        void collectJunit(Path workspace, String glob) throws IOException {
            List<Path> found = glob(workspace, glob);
            assertFalse(found.isEmpty(), glob + " matches no file in " + workspace + "\n" + log);
            junit.addAll(found);
        }

        Outcome outcome() {
            return new Outcome(jobs, junit, log.toString());
        }
    }

    static List<Path> glob(Path dir, String glob) throws IOException {
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + glob.replaceAll("/$", ""));
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> m.matches(dir.relativize(p))).sorted().toList();
        }
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** GitHub Actions: jobs in order of needs, a matrix over shard, steps as bash -eo pipefail, $GITHUB_PATH. */
    final class GitHubActions extends Ci {
        private final JsonNode workflow;

        GitHubActions(JsonNode workflow, Path repo, Map<String, String> overrides) {
            super(workflow.get("env"), repo, overrides);
            this.workflow = workflow;
        }

        Outcome run() throws Exception {
            Map<String, Boolean> byJob = new LinkedHashMap<>();
            for (var job : workflow.get("jobs").properties()) {
                JsonNode j = job.getValue();
                boolean needsOk = true;
                for (JsonNode need : j.path("needs").isArray() ? j.get("needs") : List.of(j.path("needs"))) {
                    if (!need.isMissingNode()) {
                        assertTrue(byJob.containsKey(need.asText()), job.getKey() + " needs a later job " + need.asText());
                        needsOk &= byJob.get(need.asText());
                    }
                }
                boolean ok = true;
                JsonNode shards = j.path("strategy").path("matrix").path("shard");
                List<String> instances = shards.isMissingNode() ? List.of("") : new ArrayList<>();
                shards.forEach(s -> instances.add(s.asText()));
                for (String shard : instances) {
                    String name = job.getKey() + (shard.isEmpty() ? "" : " " + shard + "/" + instances.size());
                    if (!needsOk && !j.path("if").asText().equals("always()")) {
                        continue; // skipped, as GitHub skips a job whose needs failed
                    }
                    boolean passed = job(name, j.get("steps"), shard);
                    jobs.put(name, passed);
                    ok &= passed;
                }
                byJob.put(job.getKey(), ok);
            }
            return outcome();
        }

        private String expand(String text, String shard, Path runnerTemp) {
            String s = text.replace("${{ matrix.shard }}", shard).replace("${{ runner.temp }}", runnerTemp.toString());
            Matcher m = Pattern.compile("\\$\\{\\{ env\\.([A-Z0-9_]+) }}").matcher(s);
            s = m.replaceAll(r -> Matcher.quoteReplacement(variables.get(r.group(1))));
            assertFalse(s.contains("${{"), "an expression this test does not play: " + s);
            return s;
        }

        private boolean job(String name, JsonNode steps, String shard) throws Exception {
            boolean checkout = false;
            for (JsonNode step : steps) {
                checkout |= step.path("uses").asText().startsWith("actions/checkout@");
            }
            Path w = workspace(name, checkout);
            Path runnerTemp = Files.createDirectories(w.resolveSibling(w.getFileName() + "-tmp"));
            Path githubPath = runnerTemp.resolve("github_path");
            Files.writeString(githubPath, "");
            boolean ok = true;
            for (JsonNode step : steps) {
                if (!ok && !step.path("if").asText().equals("always()")) {
                    continue;
                }
                Map<String, String> with = new LinkedHashMap<>();
                step.path("with").properties().forEach(e -> with.put(e.getKey(), expand(e.getValue().asText(), shard, runnerTemp)));
                String uses = step.path("uses").asText();
                if (step.has("run")) {
                    Map<String, String> env = baseEnvironment();
                    env.put("RUNNER_TEMP", runnerTemp.toString());
                    env.put("GITHUB_PATH", githubPath.toString());
                    List<String> added = new ArrayList<>(Files.readAllLines(githubPath));
                    java.util.Collections.reverse(added); // later additions come first, as on GitHub
                    for (String dir : added) {
                        env.put("PATH", dir + ":" + env.get("PATH"));
                    }
                    ok &= shell(expand(step.get("run").asText(), shard, runnerTemp), w, env, "-e", "-o", "pipefail");
                } else if (uses.startsWith("actions/upload-artifact@")) {
                    Path from = w.resolve(with.get("path"));
                    Path to = Files.createDirectories(artifacts.resolve(with.get("name")));
                    copy(from, Files.isDirectory(from) ? to : to.resolve(from.getFileName()));
                } else if (uses.startsWith("actions/download-artifact@")) {
                    Path into = w.resolve(with.getOrDefault("path", "."));
                    if (with.containsKey("name")) {
                        Path a = artifacts.resolve(with.get("name"));
                        boolean found = Files.isDirectory(a);
                        log.append(found ? "" : "download-artifact: no artifact " + with.get("name") + "\n");
                        ok &= found; // as on GitHub, a missing artifact fails the step
                        if (found) {
                            copy(a, into);
                        }
                    } else {
                        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + with.get("pattern"));
                        try (Stream<Path> names = Files.list(artifacts)) {
                            for (Path a : names.filter(a -> m.matches(a.getFileName())).toList()) {
                                copy(a, into.resolve(a.getFileName().toString()));
                            }
                        }
                    }
                } else if (uses.startsWith("mikepenz/action-junit-report@")) {
                    collectJunit(w, with.get("report_paths"));
                } else if (!uses.startsWith("actions/checkout@") && !uses.startsWith("actions/setup-java@")
                        && !uses.startsWith("actions/cache@")) {
                    fail("an action this test does not play: " + uses);
                }
            }
            return ok;
        }
    }

    /** GitLab CI: jobs by stage, parallel as CI_NODE_INDEX, each job's script lines in one bash -e, artifacts from needs. */
    final class GitLabCi extends Ci {
        private final JsonNode pipeline;

        GitLabCi(JsonNode pipeline, Path repo, Map<String, String> overrides) {
            super(pipeline.get("variables"), repo, overrides);
            this.pipeline = pipeline;
        }

        Outcome run() throws Exception {
            boolean earlierFailed = false;
            for (JsonNode stage : pipeline.get("stages")) {
                boolean stageFailed = false;
                for (var job : pipeline.properties()) {
                    JsonNode j = job.getValue();
                    if (!j.has("script") || !j.path("stage").asText().equals(stage.asText())) {
                        continue;
                    }
                    if (earlierFailed && !j.path("when").asText().equals("always")) {
                        continue;
                    }
                    int n = j.path("parallel").asInt(0);
                    for (int k = 1; k <= Math.max(1, n); k++) {
                        String name = job.getKey() + (n == 0 ? "" : " " + k + "/" + n);
                        boolean ok = job(name, j, k, n);
                        jobs.put(name, ok);
                        stageFailed |= !ok;
                    }
                }
                earlierFailed |= stageFailed;
            }
            return outcome();
        }

        private boolean job(String name, JsonNode j, int k, int n) throws Exception {
            Path w = workspace(name, true); // GitLab clones the repository for every job
            for (JsonNode need : j.path("needs")) {
                try (Stream<Path> kept = Files.list(artifacts)) {
                    for (Path a : kept.filter(a -> a.getFileName().toString().equals(need.asText())
                            || a.getFileName().toString().startsWith(need.asText() + " ")).toList()) {
                        copy(a, w);
                    }
                }
            }
            Map<String, String> env = baseEnvironment();
            if (n > 0) {
                env.put("CI_NODE_INDEX", String.valueOf(k));
                env.put("CI_NODE_TOTAL", String.valueOf(n));
            }
            List<String> lines = new ArrayList<>();
            j.get("script").forEach(line -> lines.add(line.asText()));
            boolean ok = shell(String.join("\n", lines), w, env, "-e");
            JsonNode kept = j.path("artifacts");
            if (ok || kept.path("when").asText().equals("always")) {
                Path store = Files.createDirectories(artifacts.resolve(name.replace('/', '_')));
                for (JsonNode path : kept.path("paths")) {
                    for (Path p : glob(w, path.asText())) {
                        copy(p, store.resolve(w.relativize(p).toString()));
                    }
                }
                if (kept.path("reports").has("junit")) {
                    collectJunit(w, kept.get("reports").get("junit").asText());
                }
            }
            return ok;
        }
    }
}
