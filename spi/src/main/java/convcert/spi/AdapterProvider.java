package convcert.spi;

import java.util.Map;

/**
 * Creates adapters by name: `--adapter NAME[:key=value,...]`. Providers are found with
 * java.util.ServiceLoader (META-INF/services/convcert.spi.AdapterProvider), so a jar on the
 * classpath adds adapters without changing the suite.
 */
public interface AdapterProvider {

    String name();

    /** One line for `convcert certify --list-adapters`. */
    String description();

    ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException;
}
