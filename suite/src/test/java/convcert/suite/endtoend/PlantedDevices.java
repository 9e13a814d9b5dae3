package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The planted-bug devices of the diagnosis benchmark (suite/devices/planted), built once per bug. */
final class PlantedDevices {

    private static final Path SOURCE = Fixtures.HOME.resolve("suite/devices/planted/planted.c");
    private static final Map<String, Path> LIBRARIES = new HashMap<>();
    private static Path build;

    private PlantedDevices() {
    }

    /** The C library with one bug planted (BUG=NONE: none). */
    static synchronized Path library(String bug) throws Exception {
        if (build == null) {
            build = Files.createTempDirectory("convcert-planted");
            build.toFile().deleteOnExit();
        }
        Path lib = LIBRARIES.get(bug);
        if (lib == null) {
            lib = build.resolve("libplanted-" + bug + ".so");
            Process p = new ProcessBuilder(List.of("gcc", "-O2", "-shared", "-fPIC", "-DBUG=" + bug, "-I",
                    Fixtures.HOME.resolve("suite/native").toString(), "-o", lib.toString(), SOURCE.toString()))
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc failed: " + output);
            LIBRARIES.put(bug, lib);
        }
        return lib;
    }
}
