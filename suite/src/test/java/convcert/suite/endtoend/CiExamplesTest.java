package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import convcert.suite.Main;
import convcert.suite.model.Provenance;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The example pipelines of docs/ci/ say what they mean: every convcert command in them parses with
 * the CLI's own options, the shards cover 1..N of the same N, and the merge reads exactly the
 * shards' report folders.
 */
class CiExamplesTest {

    static final Path CI = Fixtures.HOME.resolve("docs/ci");

    static JsonNode yaml(String file) throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(CI.resolve(file).toFile());
    }

    /** Splits a shell command line: words, with '...' and "..." quoting. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || w.length() > 0) {
                    words.add(w.toString());
                }
                w.setLength(0);
                any = false;
            } else {
                w.append(c);
            }
        }
        if (any || w.length() > 0) {
            words.add(w.toString());
        }
        return words;
    }

    /** Checks a pipeline's commands: certify per shard (shardVariable replaced by 1..n), then merge. */
    static void check(List<String> certify, String shardVariable, int shards, List<String> merge) {
        Set<String> outs = new TreeSet<>();
        Set<String> shardsSeen = new TreeSet<>();
        for (int k = 1; k <= shards; k++) {
            for (String line : certify) {
                List<String> args = words(line.replace(shardVariable, String.valueOf(k)));
                assertEquals("convcert", args.getFirst(), line);
                args = args.subList(1, args.size());
                Main.commandLine().parseArgs(args.toArray(String[]::new)); // throws on an unknown option
                outs.add(args.get(args.indexOf("--out") + 1));
                shardsSeen.add(args.get(args.indexOf("--shard") + 1));
            }
        }
        Set<String> expected = new TreeSet<>();
        for (int k = 1; k <= shards; k++) {
            expected.add(k + "/" + shards);
        }
        assertEquals(expected, shardsSeen, "the shards cover 1.." + shards + " of " + shards);
        assertEquals(1, merge.size());
        List<String> args = words(merge.getFirst());
        args = args.subList(1, args.size());
        Main.commandLine().parseArgs(args.toArray(String[]::new));
        Set<String> merged = new TreeSet<>(args.subList(2, args.indexOf("--out")));
        assertEquals(outs, merged, "the merge reads every shard's report folder, and only those");
    }

    /** The lines of the steps' shell scripts that run the installed convcert. */
    static List<String> convcertLines(JsonNode steps, String field) {
        List<String> lines = new ArrayList<>();
        for (JsonNode step : steps) {
            JsonNode run = field.isEmpty() ? step : step.get(field);
            for (String line : run == null ? new String[0] : run.asText().split("\n")) {
                if (line.strip().startsWith("convcert ")) {
                    lines.add(line.strip());
                }
            }
        }
        return lines;
    }

    @Test
    void githubActions() throws IOException {
        JsonNode jobs = yaml("github-actions.yml").get("jobs");
        int shards = jobs.get("certify").get("strategy").get("matrix").get("shard").size();
        List<String> certify = convcertLines(jobs.get("certify").get("steps"), "run");
        assertFalse(certify.isEmpty());
        check(certify, "${{ matrix.shard }}", shards, convcertLines(jobs.get("merge").get("steps"), "run"));
        assertEquals("always()", jobs.get("merge").get("if").asText(), "the merge runs when a shard failed");
        assertEquals(Provenance.VERSION, yaml("github-actions.yml").get("env").get("CONVCERT_VERSION").asText());
    }

    @Test
    void gitlabCi() throws IOException {
        JsonNode pipeline = yaml("gitlab-ci.yml");
        int shards = pipeline.get("certify").get("parallel").asInt();
        check(convcertLines(pipeline.get("certify").get("script"), ""), "${CI_NODE_INDEX}", shards,
                convcertLines(pipeline.get("merge").get("script"), ""));
        assertEquals("always", pipeline.get("merge").get("when").asText());
        assertEquals(Provenance.VERSION, pipeline.get("variables").get("CONVCERT_VERSION").asText());
        assertEquals("reports/shard-*/junit/*.xml", pipeline.get("certify").get("artifacts").get("reports").get("junit").asText(),
                "GitLab's test view reads every shard's JUnit files");
    }

    /** The JUnit report action writes a check run: the workflow asks for that right, and reads the repository only. */
    @Test
    void theGitHubWorkflowMayWriteChecksAndReadsContents() throws IOException {
        JsonNode permissions = yaml("github-actions.yml").get("permissions");
        assertEquals("write", permissions.get("checks").asText());
        assertEquals("read", permissions.get("contents").asText());
    }
}
