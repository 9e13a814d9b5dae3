package convcert.suite.adapters;

import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.ConverterAdapter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A shared library with the C ABI of suite/native/convcert_dut.h (convcert_capabilities,
 * convcert_convert on packed little-endian elements, convcert_last_error), loaded by convcert-host
 * in a process of its own: a crash, exit, hang or stray write of the library fails the case, never the
 * run. The batches travel through shared memory (SharedMemory), so the library is called as fast as it
 * was in process. Option lib=PATH TO THE .so.
 */
public final class NativeAdapter {

    private NativeAdapter() {
    }

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "native";
        }

        @Override
        public String description() {
            return "a shared library with the C ABI of suite/native/convcert_dut.h, in a host process of its own "
                    + "(option lib=...)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException {
            Path library = Path.of(Adapters.required(options, "lib", "native"));
            if (!Files.isRegularFile(library)) {
                throw new AdapterException("no library " + library);
            }
            ProcessAdapter adapter = new ProcessAdapter(List.of(NativeHelpers.host().toString(),
                    library.toAbsolutePath().toString()), context.home(), context, new SharedMemory(),
                    Identity.ofFile("shared library", library));
            adapter.start();
            return adapter;
        }
    }
}
