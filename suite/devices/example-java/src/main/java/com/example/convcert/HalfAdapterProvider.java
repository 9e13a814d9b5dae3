package com.example.convcert;

import convcert.spi.AdapterContext;
import convcert.spi.AdapterProvider;
import convcert.spi.ConverterAdapter;
import java.util.Map;

/** Listed in META-INF/services/convcert.spi.AdapterProvider: `--adapter example-half`. */
public final class HalfAdapterProvider implements AdapterProvider {

    @Override
    public String name() {
        return "example-half";
    }

    @Override
    public String description() {
        return "float <-> half through the JDK, as a vendor library would wrap its own converter (option flush=true plants a defect)";
    }

    @Override
    public ConverterAdapter create(AdapterContext context, Map<String, String> options) {
        return new HalfAdapter(Boolean.parseBoolean(options.getOrDefault("flush", "false")));
    }
}
