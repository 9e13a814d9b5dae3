package convcert.suite.adapters;

import convcert.reference.UsageException;
import convcert.suite.spi.AdapterContext;
import convcert.suite.spi.AdapterException;
import convcert.suite.spi.AdapterProvider;
import convcert.suite.spi.ConverterAdapter;
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
        return ServiceLoader.load(AdapterProvider.class).stream().map(ServiceLoader.Provider::get).toList();
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
        String name = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        String rest = spec.contains(":") ? spec.substring(spec.indexOf(':') + 1) : "";
        AdapterProvider provider = providers().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new UsageException("unknown adapter '" + name + "'; adapters: "
                        + providers().stream().map(AdapterProvider::name).collect(Collectors.joining(" "))));
        try {
            return provider.create(context, options(rest));
        } catch (AdapterException e) {
            throw new UsageException("adapter " + name + ": " + e.getMessage());
        }
    }

    static String required(Map<String, String> options, String key, String adapter) throws AdapterException {
        String value = options.get(key);
        if (value == null || value.isBlank()) {
            throw new AdapterException("needs option " + key + "=..., e.g. --adapter " + adapter + ":" + key + "=...");
        }
        return value;
    }
}
