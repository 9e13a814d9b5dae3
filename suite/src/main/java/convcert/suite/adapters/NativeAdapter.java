package convcert.suite.adapters;

import convcert.spec.VectorBytes;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A shared library called through Java's FFM API, with the C ABI of suite/native/convcert_dut.h:
 * convcert_capabilities, convcert_convert (packed little-endian elements) and convcert_last_error.
 * Option lib=PATH TO THE .so.
 */
public final class NativeAdapter implements ConverterAdapter {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "native";
        }

        @Override
        public String description() {
            return "a shared library with the C ABI of suite/native/convcert_dut.h, through FFM (option lib=...)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException {
            return new NativeAdapter(Path.of(Adapters.required(options, "lib", "native")), context);
        }
    }

    private final AdapterContext context;
    private final String identity;
    private final Arena arena = Arena.ofShared();
    private final MethodHandle convert;
    private final MethodHandle lastError;
    private final List<Capability> capabilities = new ArrayList<>();
    private MemorySegment inBuffer = MemorySegment.NULL;
    private MemorySegment outBuffer = MemorySegment.NULL;

    NativeAdapter(Path library, AdapterContext context) throws AdapterException {
        this.context = context;
        if (!Files.isRegularFile(library)) {
            throw new AdapterException("no library " + library);
        }
        this.identity = Identity.ofFile("shared library", library);
        try {
            SymbolLookup lookup = SymbolLookup.libraryLookup(library, arena);
            Linker linker = Linker.nativeLinker();
            MethodHandle caps = linker.downcallHandle(find(lookup, "convcert_capabilities"),
                    FunctionDescriptor.of(ValueLayout.ADDRESS));
            convert = linker.downcallHandle(find(lookup, "convcert_convert"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            lastError = linker.downcallHandle(find(lookup, "convcert_last_error"), FunctionDescriptor.of(ValueLayout.ADDRESS));
            MemorySegment listed = (MemorySegment) caps.invokeExact();
            if (listed.address() == 0) {
                throw new AdapterException("convcert_capabilities() of " + library + " returned NULL; it must return "
                        + "\"FROM TO ROUNDING STATE\\n\" lines");
            }
            String text = listed.reinterpret(1 << 20).getString(0);
            for (String line : text.split("\n")) {
                if (!line.isBlank()) {
                    capabilities.add(Capability.parse(line));
                }
            }
        } catch (AdapterException e) {
            throw e;
        } catch (Throwable e) {
            throw new AdapterException("cannot load " + library + ": " + e.getMessage(), e);
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String name) throws AdapterException {
        return lookup.find(name).orElseThrow(() -> new AdapterException("the library has no symbol " + name));
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public List<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        int inBytes = VectorBytes.of(context.widthOf(c.from()));
        int outBytes = VectorBytes.of(context.widthOf(c.to()));
        if (inBuffer.byteSize() < (long) count * 8) {
            inBuffer = arena.allocate((long) count * 8, 8);
            outBuffer = arena.allocate((long) count * 8, 8);
        }
        for (int i = 0; i < count; i++) {
            switch (inBytes) {
                case 1 -> inBuffer.set(ValueLayout.JAVA_BYTE, i, (byte) inputs[i]);
                case 2 -> inBuffer.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) inputs[i]);
                case 4 -> inBuffer.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) inputs[i]);
                default -> inBuffer.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, inputs[i]);
            }
        }
        int status;
        try (Arena call = Arena.ofConfined()) {
            status = (int) convert.invokeExact(call.allocateFrom(c.from()), call.allocateFrom(c.to()),
                    call.allocateFrom(c.rounding()), call.allocateFrom(c.state()), call.allocateFrom(c.form()),
                    call.allocateFrom(c.ctrlField()), inBuffer, outBuffer, (long) count);
            if (status != 0) {
                MemorySegment error = (MemorySegment) lastError.invokeExact();
                String why = error.address() == 0 ? "(convcert_last_error() returned NULL)"
                        : error.reinterpret(4096).getString(0);
                throw new AdapterException("convcert_convert returned " + status + ": " + why);
            }
        } catch (AdapterException e) {
            throw e;
        } catch (Throwable e) {
            throw new AdapterException("native call failed: " + e, e);
        }
        for (int i = 0; i < count; i++) {
            outputs[i] = switch (outBytes) {
                case 1 -> outBuffer.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
                case 2 -> outBuffer.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i) & 0xFFFFL;
                case 4 -> outBuffer.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i) & 0xFFFFFFFFL;
                default -> outBuffer.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
            };
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
