package convcert.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SPI is the API adapters are compiled against, so any change to its public signatures must be
 * deliberate: this compares them with api.txt, the signatures of the released version. An intended
 * change updates api.txt (the actual listing is written to target/api.txt) and the version as
 * README.md says.
 */
class ApiSnapshotTest {

    @Test
    void publicSignaturesAreThoseOfApiTxt() throws Exception {
        Path classes = Path.of(AdapterProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("convcert/spi"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (Modifier.isPublic(type.getModifiers())) {
                    lines.addAll(signatures(type));
                }
            }
        }
        String actual = String.join("\n", lines) + "\n";
        Path module = classes.getParent().getParent();
        Files.writeString(module.resolve("target/api.txt"), actual);
        assertEquals(Files.readString(module.resolve("api.txt")), actual,
                "the SPI's public API changed; if intended, copy target/api.txt to api.txt and follow README.md on versions");
    }

    private static List<String> signatures(Class<?> type) {
        List<String> lines = new ArrayList<>();
        int implied = Modifier.ABSTRACT | Modifier.STATIC | (type.isRecord() ? Modifier.FINAL : 0);
        lines.add(Modifier.toString(type.getModifiers() & ~implied)
                + (type.isInterface() ? " " : type.isRecord() ? " record " : " class ") + type.getName()
                + (type.getGenericSuperclass() == null || type.isRecord() || type.getSuperclass() == Object.class
                        ? "" : " extends " + type.getGenericSuperclass().getTypeName())
                + (type.getGenericInterfaces().length == 0 ? "" : (type.isInterface() ? " extends " : " implements ")
                        + String.join(", ", Arrays.stream(type.getGenericInterfaces()).map(t -> t.getTypeName()).toList())));
        List<String> members = new ArrayList<>();
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (Modifier.isPublic(c.getModifiers())) {
                members.add("  " + c.toGenericString());
            }
        }
        for (Method m : type.getDeclaredMethods()) {
            if ((Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) && !m.isSynthetic()) {
                members.add("  " + m.toGenericString());
            }
        }
        members.sort(null);
        lines.addAll(members);
        return lines;
    }
}
