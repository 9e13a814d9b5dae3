package convcert.suite.adapters;

import convcert.reference.Reference;
import convcert.spi.AdapterContext;
import java.nio.file.Path;

/**
 * The context the suite creates adapters with. Beyond the SPI it carries the profile's reference,
 * which the built-in adapters use (the reference adapter, replayed block layouts, OpenCL tables);
 * third-party adapters see only AdapterContext.
 */
public record SuiteContext(Path home, Path vectors, long batchTimeoutMillis, Reference reference)
        implements AdapterContext {

    @Override
    public String profile() {
        return reference.tables().profile();
    }

    @Override
    public int widthOf(String format) {
        return reference.tables().findFormat(format).width();
    }

    /** The reference behind a context the suite made; a built-in adapter is never created with another. */
    static Reference referenceOf(AdapterContext context) {
        if (context instanceof SuiteContext suite) {
            return suite.reference;
        }
        throw new IllegalArgumentException("built-in adapters need the suite's own context, got " + context.getClass().getName());
    }
}
