package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The expected-value cache of exhaustive cases (issue 43; suite/ADAPTERS.md, "The expected-value cache"):
 * a run that takes its digests from the cache reports exactly what a run without it reports; a file
 * altered, cut short or made under another key is set aside and made again; a digest the reference
 * contradicts is an error (exit 4), never a pass. The last 1/256 of a case's inputs, in two parts over
 * shared memory: 64 chunks of 2^18 inputs, the state's variants in lockstep.
 */
class ExpectedCacheTest {

    /** A run of the example device (a fault: float->bfloat16 rz, which only the faulty device declares; else float->half rn). */
    private static Fixtures.Run certify(Path out, String device, String... more) throws Exception {
        boolean bfloat16 = device.contains("--fault");
        List<String> args = new ArrayList<>(List.of("--adapter", SharedMemoryTransportTest.shared() + device, "--exhaustive",
                "--pair", bfloat16 ? "float:bfloat16" : "float:half", "--only", bfloat16 ? "float->bfloat16/rz-nosat*"
                        : "float->half/rn-nosat*", "--shard", "256/256", "--jobs", "2"));
        args.addAll(List.of(more));
        return Fixtures.certify(out, args.toArray(String[]::new));
    }

    /** The cases of a report without their times, and its notes. */
    private static List<JsonNode> judged(Path out) throws IOException {
        JsonNode report = Fixtures.report(out);
        List<JsonNode> cases = new ArrayList<>();
        for (JsonNode c : report.get("cases")) {
            cases.add(Fixtures.untimed(c));
        }
        cases.add(report.get("notes"));
        return cases;
    }

    private static Path file(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            List<Path> all = files.filter(f -> f.toString().endsWith(".digests")).toList();
            assertEquals(1, all.size(), all.toString());
            return all.getFirst();
        }
    }

    /** The cache file a passing run made in cache. */
    private static Path made(Path dir, Path cache) throws Exception {
        Fixtures.Run r = certify(dir.resolve("made"), "", "--cache", cache.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        return file(cache);
    }

    /** The file with its chunk line at index changed by one bit, its SHA-256 line made to match (a valid file that lies) or not. */
    private static void forge(Path file, int index, boolean resign) throws Exception {
        rewrite(file, resign, lines -> {
            int entry = lines.size() - 1 - index;
            String[] f = lines.get(entry).split(" ");
            lines.set(entry, f[0] + " " + f[1] + " " + Long.toHexString(Long.parseUnsignedLong(f[2], 16) ^ 1));
        });
    }

    /** The file's lines but the SHA-256 line, changed, and a SHA-256 line that matches them (resign) or not. */
    private static void rewrite(Path file, boolean resign, Consumer<List<String>> change) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.removeLast();
        change.accept(lines);
        String body = String.join("\n", lines) + "\n";
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
        Files.writeString(file, body + "sha256 " + (resign ? sha : sha.replace('a', 'b').replace('0', 'a')) + "\n");
    }

    @Test
    void aRunFromTheCacheReportsWhatARunWithoutItReports(@TempDir Path dir) throws Exception {
        // the device truncates float->bfloat16 rz, wrong for 65,535 NaNs: those chunks are computed and judged in full
        Path cache = dir.resolve("cache");
        List<List<JsonNode>> runs = new ArrayList<>();
        String[][] options = {{"--no-cache"}, {"--cache", cache.toString()}, {"--cache", cache.toString()}};
        for (int k = 0; k < options.length; k++) {
            Fixtures.Run r = certify(dir.resolve("run" + k), " --fault truncate", options[k]);
            assertEquals(1, r.exit(), r.out() + r.err());
            runs.add(judged(dir.resolve("run" + k)));
            if (k == 1) {
                assertEquals(6 + 64 + 1, Files.readAllLines(file(cache)).size(), "the key, a digest per chunk, the SHA-256");
                assertTrue(r.out().contains("expected values: 0 chunks of 262,144 judged by their digests"), r.out());
            }
            if (k == 2) { // the variants' chunks: mostly judged by their digests, the NaN chunks (wrong answers) computed
                assertTrue(r.out().matches("(?s).*expected values: [1-9][0-9,]* chunks of 262,144 judged by their digests.*"),
                        r.out());
            }
        }
        assertEquals(0xFFFF, runs.get(2).getFirst().get("mismatches").asLong(), runs.get(2).getFirst().toString());
        assertEquals(runs.get(0), runs.get(1));
        assertEquals(runs.get(0), runs.get(2));
    }

    @Test
    void aFileAlteredOrCutShortIsSetAsideAndMadeAgain(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        Path file = made(dir, cache);
        String made = Files.readString(file);
        forge(file, 3, false);
        Fixtures.Run altered = certify(dir.resolve("altered"), "", "--cache", cache.toString());
        assertEquals(0, altered.exit(), altered.out() + altered.err());
        assertTrue(Fixtures.report(dir.resolve("altered")).get("notes").toString()
                .contains("was set aside: its SHA-256 line does not match its lines"), altered.out());
        assertEquals(made, Files.readString(file), "made again from the reference");
        Files.writeString(file, made.substring(0, made.length() / 2));
        Fixtures.Run cut = certify(dir.resolve("cut"), "", "--cache", cache.toString());
        assertEquals(0, cut.exit(), cut.out() + cut.err());
        assertTrue(Fixtures.report(dir.resolve("cut")).get("notes").toString().contains("was set aside"), cut.out());
        assertEquals(made, Files.readString(file));
    }

    @Test
    void aFileMadeUnderOtherDecisionsIsNotUsed(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        assertEquals(0, certify(dir.resolve("default"), "", "--cache", cache.toString()).exit());
        Path ours = file(cache);
        Files.move(ours, dir.resolve("kept"));
        assertEquals(0, certify(dir.resolve("other"), "", "--cache", cache.toString(), "--decision", "nan-encoding=canonical")
                .exit());
        Path theirs = file(cache);
        assertFalse(theirs.getFileName().equals(ours.getFileName()), "another decision, another file");
        Files.move(dir.resolve("kept"), theirs, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Fixtures.Run r = certify(dir.resolve("renamed"), "", "--cache", cache.toString(), "--decision", "nan-encoding=canonical");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Fixtures.report(dir.resolve("renamed")).get("notes").toString().contains("made for another key"), r.out());
        assertTrue(Files.readString(theirs).contains("nan-encoding=canonical"), "made again under its own key");
    }

    /**
     * A file made under another reference (its code), other tables, other decisions, another case or
     * another packing, put where this run's file belongs (its lines re-signed): refused and made again
     * under the run's own key.
     */
    @ParameterizedTest(name = "another {0}")
    @ValueSource(strings = {"reference", "tables", "decisions", "case", "packing"})
    void aFileMadeUnderAnotherKeyIsRefused(String line, @TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        Path file = made(dir, cache);
        String made = Files.readString(file);
        rewrite(file, true, lines -> {
            int at = lines.indexOf(lines.stream().filter(l -> l.startsWith(line + " ")).findFirst().orElseThrow());
            lines.set(at, lines.get(at) + "x");
        });
        Fixtures.Run r = certify(dir.resolve("other"), "", "--cache", cache.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Fixtures.report(dir.resolve("other")).get("notes").toString().contains("made for another key"), r.out());
        assertEquals(made, Files.readString(file), "made again under the run's key");
    }

    @Test
    void aDigestTheReferenceContradictsIsAnErrorNeverAPass(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        Path file = made(dir, cache);
        String made = Files.readString(file);
        // a valid file that lies about one chunk: the right answer differs from it, so the chunk is computed
        forge(file, 5, true);
        Fixtures.Run r = certify(dir.resolve("forged"), "", "--cache", cache.toString());
        assertEquals(4, r.exit(), r.out() + r.err());
        for (JsonNode c : Fixtures.report(dir.resolve("forged")).get("cases")) {
            assertEquals("ERROR", c.get("status").asText(), c.toString());
            assertTrue(c.get("message").asText().contains("the reference computes"), c.toString());
        }
        assertEquals(made, Files.readString(file), "the entry corrected");
        Fixtures.Run verified = certify(dir.resolve("verified"), "", "--cache", cache.toString(), "--verify-cache");
        assertEquals(0, verified.exit(), verified.out() + verified.err());
    }

    /**
     * The H200 flow's side of it: convcert digest --cache prints what it computed before without 2^32
     * conversions, the same lines; a kept digest forged to another value (its file re-signed) is exit 4
     * under --verify-cache, and corrected.
     */
    @Test
    @Tag("slow")
    void theDigestCommandKeepsItsDigestsAndRefusesOnesThatLie(@TempDir Path dir) throws Exception {
        String[] digest = {"digest", "--from", "float", "--to", "half", "--rounding", "rz", "--cache", dir.toString()};
        Fixtures.Run made = Fixtures.run("", digest);
        assertEquals(0, made.exit(), made.err());
        assertEquals(256, made.out().lines().count(), "a digest per chunk of 2^24");
        Fixtures.Run kept = Fixtures.run("", digest);
        assertEquals(0, kept.exit(), kept.err());
        assertEquals(made.out(), kept.out());
        forge(file(dir), 7, true);
        String[] verify = Arrays.copyOf(digest, digest.length + 1);
        verify[digest.length] = "--verify-cache";
        Fixtures.Run forged = Fixtures.run("", verify);
        assertEquals(4, forged.exit(), forged.out());
        assertTrue(forged.err().contains("contradict the reference (chunk 248 is kept as"), forged.err());
        // corrected: read from the cache (a sample computed again), the kept digests are the right ones again
        Fixtures.Run corrected = Fixtures.run("", digest);
        assertEquals(0, corrected.exit(), corrected.err());
        assertEquals(made.out(), corrected.out());
    }
}
