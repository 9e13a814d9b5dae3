package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layers ARCHITECTURE.md draws, kept: spi below the generator below the suite, common (errors, digests,
 * progress, the home) below everything in the generator; inside the suite,
 * model at the bottom, diagnosis above it, runner (which uses the diagnosis), report and adapters beside each other and
 * never importing one another,
 * junit and the commands on top; only commands use the generator's command package. And no main source file
 * of any module over 400 lines.
 */
class ArchitectureTest {

    static final Path HOME = Path.of(System.getProperty("convcert.home"));
    static final Pattern IMPORT = Pattern.compile("^import (?:static )?(convcert\\.[a-z]+(?:\\.[a-z]+)?)\\.", Pattern.MULTILINE);

    /** For each package, the convcert packages it may import (besides its own). */
    static final Map<String, Set<String>> ALLOWED = Map.of(
            "convcert.suite.model", Set.of(),
            "convcert.suite.diagnosis", Set.of("convcert.suite.model"),
            "convcert.suite.runner", Set.of("convcert.suite.model", "convcert.suite.diagnosis"),
            "convcert.suite.report", Set.of("convcert.suite.model"),
            "convcert.suite.adapters", Set.of("convcert.suite.opencl", "convcert.suite.model"),
            "convcert.suite.opencl", Set.of(),
            "convcert.suite.prove", Set.of(),
            "convcert.suite.junit", Set.of("convcert.suite.model", "convcert.suite.runner", "convcert.suite.report",
                    "convcert.suite.adapters"));

    @Test
    void packagesImportOnlyTheLayersBelow() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path file : sources("suite/src/main/java")) {
            String src = Files.readString(file);
            String pkg = src.lines().filter(l -> l.startsWith("package ")).findFirst().orElseThrow()
                    .replaceAll("package |;", "");
            Matcher m = IMPORT.matcher(src);
            while (m.find()) {
                String used = m.group(1);
                boolean suite = used.startsWith("convcert.suite");
                if (suite && !used.equals(pkg) && ALLOWED.containsKey(pkg) && !ALLOWED.get(pkg).contains(used)) {
                    wrong.add(HOME.relativize(file) + " (" + pkg + ") imports " + used);
                }
            }
        }
        for (Path file : sources("generator/src/main/java")) {
            if (Files.readString(file).contains("import convcert.suite")) {
                wrong.add(HOME.relativize(file) + ": the generator imports the suite");
            }
        }
        for (String module : List.of("generator/src/main/java", "suite/src/main/java")) {
            for (Path file : sources(module)) {
                String src = Files.readString(file);
                boolean command = src.contains("package convcert.cli;") || src.contains("package convcert.suite;");
                if (!command && src.contains("import convcert.cli.")) {
                    wrong.add(HOME.relativize(file) + ": only the commands use the command package convcert.cli");
                }
            }
        }
        for (Path file : sources("generator/src/main/java/convcert/common")) {
            Matcher m = IMPORT.matcher(Files.readString(file));
            while (m.find()) {
                if (!m.group(1).equals("convcert.common")) {
                    wrong.add(HOME.relativize(file) + ": common, the bottom of every module, imports " + m.group(1));
                }
            }
        }
        for (Path file : sources("spi/src/main/java")) {
            Matcher m = IMPORT.matcher(Files.readString(file));
            while (m.find()) {
                if (!m.group(1).equals("convcert.spi")) {
                    wrong.add(HOME.relativize(file) + ": the SPI imports " + m.group(1));
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void noMainSourceFileIsOver400Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (String module : List.of("spi", "generator", "suite")) {
            for (Path file : sources(module + "/src/main/java")) {
                long lines = Files.readAllLines(file).size();
                if (lines > 400) {
                    long_.add(HOME.relativize(file) + ": " + lines + " lines");
                }
            }
        }
        assertEquals(List.of(), long_);
    }

    private static List<Path> sources(String root) throws IOException {
        try (Stream<Path> files = Files.walk(HOME.resolve(root))) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }
}
