package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import convcert.common.Sha256;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report merge trusts only what convcert wrote: a hand edit breaks the report's digest, and even an edit
 * whose digest was made again (as a forger who read the code could) must still fit the model: statuses
 * from the closed set, each status consistent with its counts, an exhaustive shard's inputs its range.
 */
class ReportTrustTest {

    @TempDir
    static Path shared;

    @TempDir
    Path temp;

    /** A failing whole run (a truncating device) and one shard of an exhaustive run. */
    @BeforeAll
    static void reports() throws Exception {
        Fixtures.Run fail = Fixtures.certify(shared.resolve("fail"), "--adapter", "process:cmd=" + Fixtures.exampleDevice()
                + " --fault truncate", "--pair", "float:bfloat16");
        assertEquals(1, fail.exit(), fail.out() + fail.err());
        Fixtures.Run shard = Fixtures.certify(shared.resolve("shard"), "--adapter", "reference", "--exhaustive", "--pair",
                "float:fp8_e5m2", "--only", "float->fp8_e5m2/rn-nosat", "--shard", "1024/1024");
        assertEquals(0, shard.exit(), shard.out() + shard.err());
    }

    /** A copy of a report folder with its JSON edited; signed: its digest made again as convcert makes it. */
    private Path edited(String report, boolean signed, Consumer<ObjectNode> edit) throws IOException {
        Path dir = Files.createDirectories(temp.resolve(report + "-" + System.nanoTime()));
        ObjectMapper json = new ObjectMapper();
        ObjectNode r = (ObjectNode) json.readTree(shared.resolve(report).resolve("conformance.json").toFile());
        edit.accept(r);
        String text = json.writerWithDefaultPrettyPrinter().writeValueAsString(r);
        if (signed) {
            String digest = r.get("digest").asText();
            String zeroed = text.replace("\"digest\" : \"" + digest + "\"", "\"digest\" : \"" + "0".repeat(64) + "\"");
            text = text.replace(digest, Sha256.of(zeroed.getBytes(StandardCharsets.UTF_8)));
        }
        Files.writeString(dir.resolve("conformance.json"), text);
        return dir;
    }

    private static ObjectNode failing(ObjectNode r) {
        for (var c : r.withArray("cases")) {
            if (c.get("status").asText().equals("FAIL")) {
                return (ObjectNode) c;
            }
        }
        throw new AssertionError("no failing case");
    }

    private Fixtures.Run merge(Path... folders) {
        List<String> args = new java.util.ArrayList<>(List.of("report", "merge"));
        Stream.of(folders).forEach(f -> args.add(f.toString()));
        args.addAll(List.of("--out", temp.resolve("merged").toString()));
        return Fixtures.run("", args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        a FAIL edited to PASS                          | false | the report's digest does not match its content
        a FAIL edited to PASS, digest made again       | true  | is PASS with
        a status convcert never writes                 | true  | Failed
        mismatches beyond the vectors                  | true  | mismatches among
        a case not run in a report not marked partial  | true  | NOT_RUN in a report not marked partial
        a field of the wrong type                      | true  | not a conformance report
        """)
    void anEditedReportIsRefused(String what, boolean signed, String message) throws IOException {
        Path dir = edited("fail", signed, r -> {
            ObjectNode c = failing(r);
            switch (what) {
                case "a status convcert never writes" -> c.put("status", "Failed");
                case "mismatches beyond the vectors" -> c.put("mismatches", c.get("vectors").asLong() + 1);
                case "a case not run in a report not marked partial" -> c.put("status", "NOT_RUN");
                case "a field of the wrong type" -> c.put("vectors", "many");
                default -> c.put("status", "PASS");
            }
        });
        RobustnessTest.outcome(merge(dir), null).expect(2, message);
    }

    @Test
    void aShardRelabelledAsHalfTheRunIsRefused() throws IOException {
        Path first = edited("shard", true, r -> r.put("shard", "1/2"));
        Path second = edited("shard", true, r -> r.put("shard", "2/2"));
        RobustnessTest.outcome(merge(first, second), null).expect(2, "inputs where shard 1/2 has 2147483648");
    }

    /**
     * Halves of one report as if written by two builds: refused unless --allow-mixed-builds says so, and
     * then the merged report names both builds, where the merging one alone was named before.
     */
    @Test
    void reportsOfTwoBuildsMergeOnlyWhenAskedAndNameBoth() throws IOException {
        Path first = edited("fail", true, r -> half(r, 0));
        Path second = edited("fail", true, r -> {
            half(r, 1);
            ((ObjectNode) r.get("provenance")).put("commit", "0123456789abcdef0123456789abcdef01234567");
        });
        RobustnessTest.outcome(merge(first, second), null).expect(2, "(commit 0123456789abcdef0123456789abcdef01234567)");
        List<String> args = new java.util.ArrayList<>(List.of("report", "merge", first.toString(), second.toString(),
                "--allow-mixed-builds", "--out", temp.resolve("mixed").toString()));
        Fixtures.Run mixed = Fixtures.run("", args.toArray(String[]::new));
        assertEquals(1, mixed.exit(), mixed.out() + mixed.err());
        String notes = new ObjectMapper().readTree(temp.resolve("mixed/conformance.json").toFile()).get("notes").toString();
        assertTrue(notes.contains("(commit 0123456789abcdef0123456789abcdef01234567)")
                && notes.contains("merged report from " + first), notes);
    }

    /** Keeps the cases of one half (0: even positions, 1: odd) of a report. */
    private static void half(ObjectNode r, int which) {
        var cases = r.withArray("cases");
        for (int i = cases.size() - 1; i >= 0; i--) {
            if (i % 2 != which) {
                cases.remove(i);
            }
        }
    }

    @Test
    void anUneditedReportStillMerges() throws IOException {
        assertEquals(1, merge(shared.resolve("fail")).exit());
    }

    /** A typo, a missing vector folder or an unknown adapter ends the run before the last report is touched. */
    @Test
    void aBadArgumentLeavesTheLastReportCurrent() throws IOException {
        Path out = temp.resolve("kept");
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit());
        String before = Files.readString(out.resolve("conformance.json"));
        List<String> junitBefore;
        try (Stream<Path> junit = Files.list(out.resolve("junit"))) {
            junitBefore = junit.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String[] bad : List.of(new String[] {"--level", "bogus"}, new String[] {"--vectors", temp.resolve("none").toString()},
                new String[] {"--adapter", "nosuch"})) {
            Fixtures.Run r = Fixtures.certify(out, bad);
            assertEquals(2, r.exit(), String.join(" ", bad) + ": " + r.out() + r.err());
            assertEquals(before, Files.readString(out.resolve("conformance.json")), String.join(" ", bad));
            assertFalse(Files.exists(out.resolve("superseded")), String.join(" ", bad) + " set the last report aside");
            try (Stream<Path> junit = Files.list(out.resolve("junit"))) {
                assertEquals(junitBefore, junit.map(p -> p.getFileName().toString()).sorted().toList(), String.join(" ", bad));
            }
        }
    }

    @Test
    void mergeHoldsTheOutLockAndReplacesOnlyWhatConvcertWroteThere() throws IOException {
        Path out = temp.resolve("merged");
        assertEquals(0, Fixtures.certify(out, "--pair", "float:half").exit());
        Path foreign = Files.writeString(out.resolve("junit/TEST-someone-else.xml"), "<testsuites/>");
        assertEquals(1, merge(shared.resolve("fail")).exit());
        try (Stream<Path> junit = Files.list(out.resolve("junit"))) {
            List<String> ours = junit.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("TEST-convcert-")).toList();
            assertEquals(1, ours.size(), ours.toString());
            assertTrue(ours.getFirst().startsWith("TEST-convcert-process"), "the merged report's, not the earlier run's: " + ours);
        }
        assertTrue(Files.exists(foreign), "a file convcert did not write stays");
        assertTrue(Files.isRegularFile(out.resolve("superseded/conformance.json")));
        try (FileChannel lock = FileChannel.open(out.resolve(".convcert.lock"), StandardOpenOption.WRITE);
             var held = lock.lock()) {
            RobustnessTest.outcome(merge(shared.resolve("fail")), null).expect(2, "another convcert run is writing to");
        }
    }
}
