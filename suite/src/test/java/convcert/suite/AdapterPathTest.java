package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third-party adapter, compiled here against the SPI and packed in a jar of its own, is found
 * through --adapter-path (ServiceLoader) and certified; a missing path is a usage error.
 */
class AdapterPathTest {

    @TempDir
    Path temp;

    private Path adapterJar() throws IOException {
        Path src = Files.createDirectories(temp.resolve("src/ext"));
        Files.writeString(src.resolve("HalfAdapter.java"), """
                package ext;
                import convcert.suite.spi.*;
                import java.util.List;
                import java.util.Map;
                /** float -> half by Float.floatToFloat16, as a vendor's library would wrap its own converter. */
                public final class HalfAdapter implements AdapterProvider, ConverterAdapter {
                    public String name() { return "ext-half"; }
                    public String description() { return "an adapter from its own jar"; }
                    public ConverterAdapter create(AdapterContext context, Map<String, String> options) { return this; }
                    public List<Capability> capabilities() { return List.of(new Capability("float", "half", "rn", "nosat")); }
                    public boolean programsSaturation() { return false; }
                    public void convert(CaseKey c, long[] in, long[] out, int count) {
                        for (int i = 0; i < count; i++) {
                            out[i] = Float.floatToFloat16(Float.intBitsToFloat((int) in[i])) & 0xFFFF;
                        }
                    }
                }
                """);
        Path classes = Files.createDirectories(temp.resolve("classes"));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), src.resolve("HalfAdapter.java").toString());
        assertEquals(0, rc, "the example adapter compiles against the SPI");
        Path jar = temp.resolve("lib/ext-half.jar");
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/services/convcert.suite.spi.AdapterProvider"));
            out.write("ext.HalfAdapter\n".getBytes());
            out.putNextEntry(new JarEntry("ext/HalfAdapter.class"));
            out.write(Files.readAllBytes(classes.resolve("ext/HalfAdapter.class")));
        }
        return jar;
    }

    @Test
    void aThirdPartyAdapterComesWithItsJar() throws IOException {
        Path jar = adapterJar();
        MainTest.Run list = MainTest.run("", "certify", "--adapter-path", jar.toString(), "--list-adapters");
        assertTrue(list.out().contains("ext-half"), list.out());
        for (Path path : List.of(jar, jar.getParent())) { // the jar, or the folder holding it
            MainTest.Run r = CertifyTest.certify(temp.resolve("out-" + path.getFileName()), "--adapter-path",
                    path.toString(), "--adapter", "ext-half", "--pair", "float:half");
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("PASS: 1 cases"), r.out());
        }
        MainTest.Run missing = CertifyTest.certify(temp.resolve("x"), "--adapter-path", temp.resolve("nope.jar").toString(),
                "--adapter", "ext-half");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nope.jar: no such file or folder"), missing.err());
    }
}
