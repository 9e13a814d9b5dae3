package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two readings of OCP MX that libraries differ on (decisions exponent-ties and mx-infinity) are
 * told apart by the ci set: an implementation of either reading, played back as a recording of that
 * reading's expected outputs, passes under its own option and fails under the other, in exactly the
 * cases the decision reaches.
 */
class OcpMxReadingsTest {

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}: {1} vs {2}")
    @CsvSource({
        "exponent-ties, up, even-code, float->e8m0/rn-*",
        "mx-infinity, nan-scale, largest-scale, float->mx*-(block|tensor)",
        "fixed-minimum, symmetric, twos-complement, float->mxint8/*-block",
    })
    void eachReadingFailsUnderTheOther(String decision, String first, String second, String reached) throws IOException {
        for (String[] pair : List.of(new String[] {first, second}, new String[] {second, first})) {
            String recorded = pair[0];
            String other = pair[1];
            Path vectors = temp.resolve(recorded + "/vectors");
            assertEquals(0, Fixtures.run("", "generate", "--profile", "ocp-mx", "--level", "ci", "--format", "bin",
                    "--decision", decision + "=" + recorded, "--out", vectors.toString()).exit());
            Path recording = record(vectors, temp.resolve(recorded + "/recording"));
            Fixtures.Run own = Fixtures.certify(temp.resolve(recorded + "/own"), "--profile", "ocp-mx", "--vectors",
                    vectors.toString(), "--decision", decision + "=" + recorded, "--adapter", "replay:dir=" + recording);
            assertEquals(0, own.exit(), own.out() + own.err());
            Path out = temp.resolve(recorded + "/under-" + other);
            Fixtures.Run r = Fixtures.certify(out, "--profile", "ocp-mx", "--vectors", vectors.toString(),
                    "--decision", decision + "=" + other, "--adapter", "replay:dir=" + recording);
            assertEquals(1, r.exit(), r.out() + r.err());
            TreeSet<String> failed = new TreeSet<>();
            for (JsonNode c : Fixtures.report(out).get("cases")) {
                if (c.get("status").asText().equals("FAIL")) {
                    failed.add(c.get("name").asText());
                }
            }
            String pattern = reached.replace("*", ".*");
            assertEquals(true, !failed.isEmpty() && failed.stream().allMatch(n -> n.matches(pattern)),
                    recorded + " under " + other + " fails " + failed);
            assertEquals(true, failed.stream().anyMatch(n -> n.contains("/rn-")), "rn is reached: " + failed);
        }
    }

    /** A replay recording (profile/pair/case.out.bin) of a vector set's own expected outputs. */
    private static Path record(Path vectors, Path recording) throws IOException {
        try (Stream<Path> files = Files.walk(vectors)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".expected.bin")).toList()) {
                Path target = recording.resolve(vectors.relativize(f).toString().replace(".expected.bin", ".out.bin"));
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
        return recording;
    }
}
