package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Allure results: a case keeps its historyId whatever else the run selects (so Allure's history
 * follows it), the environment names the run, and categories group failures by mismatch kind.
 */
class AllureResultsTest {

    @TempDir
    Path temp;

    /** The Allure result of a case by name, or null. */
    static JsonNode result(Path out, String name) throws IOException {
        try (var files = Files.list(out.resolve("allure-results"))) {
            for (Path f : files.filter(p -> p.toString().endsWith("-result.json")).toList()) {
                JsonNode r = new ObjectMapper().readTree(f.toFile());
                if (r.get("name").asText().equals(name)) {
                    return r;
                }
            }
        }
        return null;
    }

    static String historyId(Path out, String name) throws IOException {
        JsonNode r = result(out, name);
        return r == null ? null : r.get("historyId").asText();
    }

    @Test
    void historyFollowsTheCaseNotItsPosition() throws IOException {
        Fixtures.Run a = Fixtures.certify(temp.resolve("a"), "--adapter", "jdk", "--pair", "float:half");
        // float->bfloat16 sorts before float->half: the case's position in the plan moves
        Fixtures.Run b = Fixtures.certify(temp.resolve("b"), "--adapter", "jdk", "--pair", "float:bfloat16", "--pair",
                "float:half");
        assertEquals(0, a.exit(), a.out());
        assertTrue(b.exit() == 0 || b.exit() == 1, b.out());
        String first = historyId(temp.resolve("a"), "float->half/rn-nosat");
        assertTrue(first != null && first.length() == 64, "historyId " + first);
        assertEquals(first, historyId(temp.resolve("b"), "float->half/rn-nosat"));
        String env = Files.readString(temp.resolve("a/allure-results/environment.properties"));
        assertTrue(env.contains("adapter=jdk\n") && env.contains("profile=ascend-c\n"), env);
        assertTrue(Files.readString(temp.resolve("a/allure-results/categories.json")).contains("adapter failures"));
    }
}
