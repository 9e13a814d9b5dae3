package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After `mvn package`: the launchers' JVM class cache (bin/convcert-aot). The second run with a set of jars
 * makes it (a CI job that runs convcert once pays nothing), and later runs use it:
 * convcert's classes come from it and the output is the same. A rebuilt jar gets a cache of its own, because
 * the JVM would take the old one. A damaged cache costs only the speed, and CONVCERT_AOT=off turns it off.
 */
class JvmCacheIT {

    static final Path HOME = Path.of(System.getProperty("convcert.home"));
    static final Path SCRIPT = HOME.resolve("suite/src/dist/bin/convcert-aot");
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    record Result(int exit, String out) { }

    static Result run(List<String> command, boolean off) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (off) {
            pb.environment().put("CONVCERT_AOT", "off");
        } else {
            pb.environment().remove("CONVCERT_AOT");
        }
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }

    /** The launchers' JVM options, with the suite's jar copied into dir so that a test can rebuild it. */
    static List<String> options(Path dir) throws Exception {
        Path jar = Files.copy(HOME.resolve("suite/target/convcert-suite-" + convcert.suite.model.Provenance.VERSION + ".jar"),
                dir.resolve("convcert-suite.jar"), StandardCopyOption.COPY_ATTRIBUTES);
        String rest = Files.readString(HOME.resolve("suite/target/classpath.txt")).strip();
        return List.of("-Xss4m", "--enable-native-access=ALL-UNNAMED", "-Dconvcert.home=" + HOME, "-cp", jar + ":" + rest);
    }

    static List<String> aot(Path dir, List<String> options, boolean off) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), dir.toString(), JAVA));
        command.addAll(options);
        Result r = run(command, off);
        assertEquals(0, r.exit(), r.out());
        return r.out().lines().toList();
    }

    /** --version under the options, with each class's source logged: the output and whether Main came from the cache. */
    static Result version(List<String> aot, List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA));
        command.addAll(aot);
        command.add("-Xlog:class+load=info:stdout");
        command.addAll(options);
        command.addAll(List.of("convcert.suite.Main", "--version"));
        return run(command, false);
    }

    static List<Path> caches(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".aot")).toList();
        }
    }

    static boolean mainFromCache(Result r) {
        return r.out().lines().anyMatch(l -> l.contains(" convcert.suite.Main source: shared objects file"));
    }

    static String convcertsOutput(Result r) {
        return String.join("\n", r.out().lines().filter(l -> !l.startsWith("[")).toList());
    }

    @Test
    void madeOnceUsedAfterMadeAgainForARebuiltJarAndHarmlessWhenDamaged(@TempDir Path dir) throws Exception {
        List<String> options = options(dir);
        Result plain = version(List.of(), options);
        assertEquals(0, plain.exit(), plain.out());
        assertFalse(mainFromCache(plain), plain.out());

        assertEquals(List.of(), aot(dir, options, false), "a first run (a CI job's only one) makes no cache");
        assertEquals(List.of(), caches(dir));
        List<String> first = aot(dir, options, false);
        assertEquals(3, first.size(), String.join("\n", first));
        assertTrue(first.getFirst().startsWith("-XX:AOTCache=" + dir.resolve("convcert-")), first.getFirst());
        assertEquals(1, caches(dir).size());
        Result cached = version(first, options);
        assertEquals(0, cached.exit(), cached.out());
        assertTrue(mainFromCache(cached), "convcert's classes come from the cache\n" + cached.out());
        assertEquals(convcertsOutput(plain), convcertsOutput(cached));
        assertEquals(first, aot(dir, options, false), "the same jars, the same cache");

        // a rebuilt jar: the JVM would still map the old cache, so the key changes and the old cache goes
        Path jar = dir.resolve("convcert-suite.jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        assertEquals(List.of(), aot(dir, options, false), "the rebuilt jar's first run");
        List<String> rebuilt = aot(dir, options, false);
        assertFalse(rebuilt.getFirst().equals(first.getFirst()), "a rebuilt jar gets a cache of its own");
        assertEquals(List.of(Path.of(rebuilt.getFirst().substring("-XX:AOTCache=".length()))), caches(dir));

        // damaged: the JVM starts without it, and says nothing of it on standard output
        Path cache = caches(dir).getFirst();
        byte[] bytes = Files.readAllBytes(cache);
        Files.write(cache, java.util.Arrays.copyOf(bytes, bytes.length / 3));
        Result damaged = version(rebuilt, options);
        assertEquals(0, damaged.exit(), damaged.out());
        assertFalse(mainFromCache(damaged), damaged.out());
        assertEquals(convcertsOutput(plain), convcertsOutput(damaged));
        assertFalse(damaged.out().contains("][aot") || damaged.out().contains("][cds"), damaged.out());
        assertEquals(List.of(), aot(dir, options, true), "CONVCERT_AOT=off: no options");
    }
}
