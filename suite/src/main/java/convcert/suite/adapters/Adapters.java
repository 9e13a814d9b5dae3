package convcert.suite.adapters;

import convcert.common.UsageException;
import convcert.reference.Reference;
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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Finds adapter providers with ServiceLoader and creates one from "NAME[:key=value,...]". */
public final class Adapters {

    private Adapters() {
    }

    /** A provider the loader found, or (provider null) why one could not be loaded: a broken jar costs only itself. */
    public record Found(AdapterProvider provider, String broken) {
    }

    /** Every provider the loader finds (convcert's own first), each made; for --list-adapters. */
    public static List<Found> providers(ClassLoader loader) {
        List<Found> all = new ArrayList<>();
        search(loader, p -> {
            all.add(new Found(p, null));
            return false;
        }, why -> all.add(new Found(null, why)));
        return all;
    }

    /**
     * Goes through the providers, convcert's own first and then those only the loader adds, making each
     * only when reached, until wanted says stop. A provider that cannot be loaded or made is passed to
     * broken, and the search goes on.
     */
    private static void search(ClassLoader loader, Predicate<AdapterProvider> wanted, Consumer<String> broken) {
        ClassLoader own = Adapters.class.getClassLoader();
        if (visit(ServiceLoader.load(AdapterProvider.class, own), type -> true, wanted, broken) || loader == own) {
            return;
        }
        visit(ServiceLoader.load(AdapterProvider.class, loader), type -> type.getClassLoader() != own, wanted, broken);
    }

    private static boolean visit(ServiceLoader<AdapterProvider> services, Predicate<Class<?>> considered,
                                 Predicate<AdapterProvider> wanted, Consumer<String> broken) {
        Iterator<ServiceLoader.Provider<AdapterProvider>> it = services.stream().iterator();
        for (int errors = 0; errors < 100; ) {
            ServiceLoader.Provider<AdapterProvider> next;
            try {
                if (!it.hasNext()) {
                    return false;
                }
                next = it.next();
                if (!considered.test(next.type())) {
                    continue;
                }
                if (wanted.test(next.get())) {
                    return true;
                }
            } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
                errors++;
                broken.accept(e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            }
        }
        return false;
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

    /**
     * Creates the adapter NAME[:options]: the first provider of that name the loader finds, convcert's own
     * first, no other one made after it. Providers that could not be loaded matter only when no provider
     * has the name: the error then names them too.
     */
    public static ConverterAdapter create(String spec, AdapterContext context, ClassLoader loader) {
        String name = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        String rest = spec.contains(":") ? spec.substring(spec.indexOf(':') + 1) : "";
        List<String> seen = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        AdapterProvider[] found = {null};
        search(loader, p -> {
            seen.add(p.name());
            found[0] = p.name().equals(name) ? p : null;
            return found[0] != null;
        }, broken::add);
        if (found[0] == null) {
            throw new UsageException("unknown adapter '" + name + "'; adapters: " + String.join(" ", seen)
                    + " (third-party ones come with --adapter-path JAR|DIR)"
                    + (broken.isEmpty() ? "" : "; could not load: " + String.join("; ", broken)));
        }
        try {
            return found[0].create(context, options(rest));
        } catch (AdapterException e) {
            throw new UsageException("adapter " + name + ": " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            throw new UsageException("adapter " + name + ": its provider failed: " + e);
        }
    }

    /**
     * Whether the adapter computes exactly the expected values of this reference: the reference adapter
     * made on it. The run then computes them once (runner.RunConfig.outputsAreExpected).
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
