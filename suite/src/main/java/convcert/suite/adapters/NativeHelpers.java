package convcert.suite.adapters;

import convcert.common.Home;
import convcert.common.Sha256;
import convcert.spi.AdapterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The two small C programs devices run under, built from suite/native/ on first use with the system's
 * C compiler ($CC, else cc): convcert-spawn (a device cannot outlive convcert) and convcert-host (a
 * shared library in a process of its own). Each build lands in a cache folder named by the source's
 * SHA-256 ($XDG_CACHE_HOME/convcert, else ~/.cache/convcert), so a read-only installation works and an
 * upgrade rebuilds.
 */
final class NativeHelpers {

    private static final Map<String, Path> BUILT = new ConcurrentHashMap<>();

    private NativeHelpers() {
    }

    /** convcert-spawn, or null where it cannot be built (no C compiler): devices then run under setsid alone. */
    static Path spawn() {
        try {
            return program("convcert_spawn.c", "convcert-spawn", List.of());
        } catch (AdapterException e) {
            return null;
        }
    }

    /** convcert-host; the native adapter cannot run without it. */
    static Path host() throws AdapterException {
        return program("convcert_host.c", "convcert-host", List.of("-ldl"));
    }

    private static Path program(String source, String name, List<String> libraries) throws AdapterException {
        Path built = BUILT.get(name);
        if (built != null) {
            return built;
        }
        synchronized (NativeHelpers.class) {
            built = BUILT.get(name);
            if (built == null) {
                built = build(Home.path().resolve("suite/native").resolve(source), name, libraries);
                BUILT.put(name, built);
            }
            return built;
        }
    }

    private static Path build(Path source, String name, List<String> libraries) throws AdapterException {
        try {
            String digest = Sha256.of(source).substring(0, 16);
            Path folder = Home.userCache().resolve(digest);
            Path program = folder.resolve(name);
            if (Files.isExecutable(program)) {
                return program;
            }
            Files.createDirectories(folder);
            Path temp = Files.createTempFile(folder, name, ".partial");
            String cc = System.getenv().getOrDefault("CC", "cc");
            List<String> command = new java.util.ArrayList<>(List.of(cc, "-O2", "-o", temp.toString(), source.toString()));
            command.addAll(libraries);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                Files.deleteIfExists(temp);
                throw new AdapterException("cannot build " + name + " from " + source + " with " + cc + ": "
                        + output.lines().findFirst().orElse("exit " + p.exitValue()));
            }
            Files.move(temp, program, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return program;
        } catch (IOException e) {
            throw new AdapterException("cannot build " + name + " from " + source + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted while building " + name);
        }
    }
}
