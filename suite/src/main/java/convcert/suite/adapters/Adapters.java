package convcert.suite.adapters;

import convcert.reference.Reference;
import convcert.reference.UsageException;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.ConverterAdapter;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds adapter providers with ServiceLoader and creates one from "NAME[:key=value,...]". */
public final class Adapters {

    private Adapters() {
    }

    public static List<AdapterProvider> providers() {
        return providers(Adapters.class.getClassLoader());
    }

    /** The providers the loader finds (the classpath's, and those of --adapter-path). */
    public static List<AdapterProvider> providers(ClassLoader loader) {
        return ServiceLoader.load(AdapterProvider.class, loader).stream().map(ServiceLoader.Provider::get).toList();
    }

    /**
     * A class loader that adds third-party adapters to convcert's own: each path a jar, or a folder of
     * jars (and classes). A path that does not exist is a usage error naming it.
     */
    public static ClassLoader loader(List<Path> adapterPath) {
        if (adapterPath.isEmpty()) {
            return Adapters.class.getClassLoader();
        }
        List<URL> urls = new ArrayList<>();
        try {
            for (Path p : adapterPath) {
                if (!Files.exists(p)) {
                    throw new UsageException("--adapter-path " + p + ": no such file or folder");
                }
                urls.add(p.toUri().toURL());
                if (Files.isDirectory(p)) {
                    try (var files = Files.list(p)) {
                        for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                            urls.add(jar.toUri().toURL());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UsageException("--adapter-path: " + e.getMessage());
        }
        return new URLClassLoader(urls.toArray(URL[]::new), Adapters.class.getClassLoader());
    }

    /** Parses "key=value,key=value"; a value may hold spaces but not commas. */
    public static Map<String, String> options(String text) {
        Map<String, String> options = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return options;
        }
        for (String part : text.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2 || kv[0].isBlank()) {
                throw new UsageException("bad adapter option '" + part + "'; expected key=value");
            }
            options.put(kv[0].strip(), kv[1].strip());
        }
        return options;
    }

    public static ConverterAdapter create(String spec, AdapterContext context) {
        return create(spec, context, Adapters.class.getClassLoader());
    }

    /** Creates the adapter NAME[:options] from the providers the loader finds. */
    public static ConverterAdapter create(String spec, AdapterContext context, ClassLoader loader) {
        String name = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        String rest = spec.contains(":") ? spec.substring(spec.indexOf(':') + 1) : "";
        List<AdapterProvider> providers = providers(loader);
        AdapterProvider provider = providers.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new UsageException("unknown adapter '" + name + "'; adapters: "
                        + providers.stream().map(AdapterProvider::name).collect(Collectors.joining(" "))
                        + " (third-party ones come with --adapter-path JAR|DIR)"));
        try {
            return provider.create(context, options(rest));
        } catch (AdapterException e) {
            throw new UsageException("adapter " + name + ": " + e.getMessage());
        }
    }

    /**
     * Whether the adapter computes exactly the expected values of this reference: the reference adapter
     * made on it. The run then computes them once (SuiteRun.Config.outputsAreExpected).
     */
    public static boolean computesExpected(ConverterAdapter adapter, Reference reference) {
        return adapter instanceof ReferenceAdapter r && r.reference() == reference;
    }

    static String required(Map<String, String> options, String key, String adapter) throws AdapterException {
        String value = options.get(key);
        if (value == null || value.isBlank()) {
            throw new AdapterException("needs option " + key + "=..., e.g. --adapter " + adapter + ":" + key + "=...");
        }
        return value;
    }
}
