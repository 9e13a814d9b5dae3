package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The layers ARCHITECTURE.md draws, kept: spi below the generator below the suite, common (errors, digests,
 * progress, the home) below everything in the generator; inside the suite,
 * model at the bottom (data only: of the generator it uses common alone), diagnosis above it, runner (which uses the diagnosis), report and adapters beside each other and
 * never importing one another,
 * junit and the commands on top; only commands use the generator's command package. And the size of what a
 * reader takes in at once: no main source file over 400 lines, no method over 60, no line over 140 columns.
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
        for (Path file : sources("suite/src/main/java/convcert/suite/model")) {
            Matcher m = IMPORT.matcher(Files.readString(file));
            while (m.find()) {
                if (!m.group(1).startsWith("convcert.suite") && !m.group(1).equals("convcert.spi") && !m.group(1).equals("convcert.common")) {
                    wrong.add(HOME.relativize(file) + ": the run model, data only, imports " + m.group(1));
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

    /** Methods (lambdas and local classes inside them included) measured by the JDK's own parser, from modifiers to brace. */
    @Test
    void noMainMethodIsOver60LinesAndNoLineOver140Columns() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (String module : List.of("spi", "generator", "suite")) {
            files.addAll(sources(module + "/src/main/java"));
        }
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > MAX_COLUMNS) {
                    wrong.add(HOME.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).length() + " columns");
                }
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, manager, null, List.of("-proc:none"), null,
                    manager.getJavaFileObjectsFromPaths(files));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                new TreeScanner<Void, Void>() {
                    @Override
                    public Void visitMethod(MethodTree method, Void unused) {
                        long first = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, method));
                        long last = unit.getLineMap().getLineNumber(positions.getEndPosition(unit, method));
                        if (last - first + 1 > MAX_METHOD_LINES) {
                            wrong.add(HOME.relativize(Path.of(unit.getSourceFile().toUri())) + ":" + first + ": "
                                    + method.getName() + " runs " + (last - first + 1) + " lines");
                        }
                        return super.visitMethod(method, unused);
                    }
                }.scan(unit, null);
            }
        }
        assertEquals(List.of(), wrong);
    }

    static final int MAX_METHOD_LINES = 60;
    static final int MAX_COLUMNS = 140;

    private static List<Path> sources(String root) throws IOException {
        try (Stream<Path> files = Files.walk(HOME.resolve(root))) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }
}
