package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.spi.AdapterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example third-party adapter project (suite/devices/example-java) is compiled here for Java 21 (Float.floatToFloat16 is from Java 20)
 * against the SPI's classes alone, packed in a jar of its own with its services file, found through
 * --adapter-path (ServiceLoader) and certified; its planted defect fails. A missing path is a usage
 * error.
 */
class AdapterPathTest {

    private static final Path PROJECT = Fixtures.HOME.resolve("suite/devices/example-java");

    @TempDir
    static Path temp;

    private static Path jar;

    /** Where the SPI's classes are: a jar or a classes folder holding nothing but convcert.spi. */
    static Path spiOnly() throws Exception {
        Path spi = Path.of(AdapterProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(spi)) {
            try (Stream<Path> files = Files.walk(spi)) {
                List<Path> foreign = files.filter(Files::isRegularFile).map(spi::relativize)
                        .filter(p -> p.toString().endsWith(".class") && !p.startsWith("convcert/spi")).toList();
                assertEquals(List.of(), foreign, "the SPI's classes are the SPI alone");
            }
        }
        return spi;
    }

    @BeforeAll
    static void buildTheExampleProject() throws Exception {
        jar = exampleAdapterJar(spiOnly(), temp);
    }

    /** Compiles the example project against spi alone (a jar or a classes folder) and packs its jar in dir/lib. */
    static Path exampleAdapterJar(Path spi, Path dir) throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("--release", "21", "-d", classes.toString(), "-cp", spi.toString()));
        try (Stream<Path> sources = Files.walk(PROJECT.resolve("src/main/java"))) {
            sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
        assertEquals(0, rc, "the example adapter compiles against " + spi + " alone");
        Path jar = Files.createDirectories(dir.resolve("lib")).resolve("half-adapter-1.0.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path root : List.of(classes, PROJECT.resolve("src/main/resources"))) {
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                        out.putNextEntry(new JarEntry(root.relativize(f).toString()));
                        out.write(Files.readAllBytes(f));
                    }
                }
            }
        }
        return jar;
    }

    @Test
    void aThirdPartyAdapterComesWithItsJar() {
        Fixtures.Run list = Fixtures.run("", "certify", "--adapter-path", jar.toString(), "--list-adapters");
        assertTrue(list.out().contains("example-half"), list.out());
        for (Path path : List.of(jar, jar.getParent())) { // the jar, or the folder holding it
            Fixtures.Run r = Fixtures.certify(temp.resolve("out-" + path.getFileName()), "--adapter-path",
                    path.toString(), "--adapter", "example-half", "--pair", "float:half", "--pair", "half:float");
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("PASS: 2 cases"), r.out());
        }
    }

    @Test
    void itsPlantedDefectFails() {
        Fixtures.Run r = Fixtures.certify(temp.resolve("flush"), "--adapter-path", jar.toString(),
                "--adapter", "example-half:flush=true", "--pair", "float:half");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("float->half/rn-nosat"), r.out());
    }

    @Test
    void aMissingPathIsAUsageError() {
        Fixtures.Run missing = Fixtures.certify(temp.resolve("x"), "--adapter-path", temp.resolve("nope.jar").toString(),
                "--adapter", "example-half");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nope.jar: no such file or folder"), missing.err());
    }

    /** The example's pom asks for this version's SPI, provided by the suite, and for nothing else. */
    @Test
    void theExamplePomDependsOnThisSpiAlone() throws IOException {
        String pom = Files.readString(PROJECT.resolve("pom.xml"));
        Matcher version = Pattern.compile("<artifactId>convcert-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Fixtures.HOME.resolve("pom.xml")));
        assertTrue(version.find());
        String dependencies = pom.substring(pom.indexOf("<dependencies>"), pom.indexOf("</dependencies>"));
        assertEquals(1, dependencies.split("<dependency>", -1).length - 1, dependencies);
        assertTrue(dependencies.matches("(?s).*<artifactId>convcert-spi</artifactId>\\s*<version>" + Pattern.quote(version.group(1))
                + "</version>\\s*<scope>provided</scope>.*"), dependencies);
        assertFalse(pom.contains("convcert-suite"), "an adapter project never needs the suite");
    }
}
