package convcert.suite.adapters;

import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClTypes;
import convcert.opencl.OpenClVectors;
import convcert.reference.Reference;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.SpecTables;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.MemoryCase;
import convcert.spi.MemoryOperations;
import convcert.suite.opencl.ConvertKernel;
import convcert.suite.opencl.MemoryKernel;
import convcert.suite.opencl.OpenClDevice;
import convcert.vectors.VectorFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A real OpenCL implementation (any platform: PoCL in CI), through JOCL: every case runs as an OpenCL
 * C kernel holding every spelling of its conversion (convert_DST[n][_sat][_rtX] at each vector width,
 * without the modifier where the mode is the default, ...: {@link ConvertKernel}), or vstore_half_rtX /
 * vload_half where the device lacks cl_khr_fp16. Capabilities follow the device's extensions. Options:
 * platform=NAME (a substring), device=INDEX, widths=1+4 (a subset of 1+2+3+4+8+16, all by default),
 * spellings=named (only the case's own name; all by default), spaces=global+local (address spaces of
 * the memory functions, all four by default: {@link MemoryKernel}): to find which form a mismatch is in.
 * The OpenCL type names and rounding suffixes come from spec-tables/opencl.
 */
public final class OpenClAdapter implements ConverterAdapter, MemoryOperations {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "opencl";
        }

        @Override
        public String description() {
            return "an OpenCL device through JOCL: convert_* in every spelling and vector width, vload/vstore kernels "
                    + "in every address space (options platform=, device=, widths=, spellings=, spaces=)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException {
            int device;
            try {
                device = Integer.parseInt(options.getOrDefault("device", "0"));
            } catch (NumberFormatException e) {
                throw new AdapterException("device=INDEX, got '" + options.get("device") + "'");
            }
            Path dir = SuiteContext.referenceOf(context).tables().directory();
            if (!Files.isRegularFile(dir.resolve("types.csv"))) {
                throw new AdapterException("the opencl adapter needs a profile with OpenCL's types.csv (--profile opencl); "
                        + "profile " + context.profile() + " has none");
            }
            List<Integer> widths = new ArrayList<>();
            for (String w : options.getOrDefault("widths", "1+2+3+4+8+16").split("\\+")) {
                if (!ConvertKernel.WIDTHS.contains(parseWidth(w)) || widths.contains(parseWidth(w))) {
                    throw new AdapterException("widths=W+W+... of 1, 2, 3, 4, 8, 16, got '" + options.get("widths") + "'");
                }
                widths.add(parseWidth(w));
            }
            String spellings = options.getOrDefault("spellings", "all");
            if (!spellings.equals("all") && !spellings.equals("named")) {
                throw new AdapterException("spellings=all or spellings=named, got '" + spellings + "'");
            }
            List<MemoryKernel.Space> spaces = new ArrayList<>();
            for (String name : options.getOrDefault("spaces", "global+local+private+constant").split("\\+")) {
                MemoryKernel.Space space = Arrays.stream(MemoryKernel.Space.values())
                        .filter(x -> x.name().equalsIgnoreCase(name.strip())).findFirst().orElse(null);
                if (space == null || spaces.contains(space)) {
                    throw new AdapterException("spaces=S+S+... of global, local, private, constant, got '"
                            + options.get("spaces") + "'");
                }
                spaces.add(space);
            }
            return new OpenClAdapter(new OpenClDevice(options.get("platform"), device), context, widths,
                    spellings.equals("all"), spaces);
        }

        private static int parseWidth(String w) {
            try {
                return Integer.parseInt(w.strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    private static final List<String> FLOATING = ConvertKernel.FLOATING;

    private final OpenClDevice device;
    private final OpenClTypes types;
    private final Reference reference;
    private final SpecTables tables;
    private final List<Capability> capabilities = new ArrayList<>();
    private final OpenClTables memoryTables;
    private final List<String> memoryCapabilities = new ArrayList<>();
    private final List<Integer> widths;
    private final boolean allSpellings;
    private final List<MemoryKernel.Space> spaces;

    OpenClAdapter(OpenClDevice device, AdapterContext context, List<Integer> widths, boolean allSpellings,
                  List<MemoryKernel.Space> spaces) {
        this.device = device;
        this.spaces = List.copyOf(spaces);
        this.widths = List.copyOf(widths);
        this.allSpellings = allSpellings;
        // The profile under certification (--profile or --tables), which must carry OpenCL's type table.
        this.reference = SuiteContext.referenceOf(context);
        this.tables = reference.tables();
        this.types = OpenClTypes.load(tables.directory());
        this.memoryTables = OpenClTables.attachedTo(tables);
        for (MemoryCase m : memoryTables == null ? List.<MemoryCase>of() : OpenClVectors.cases(memoryTables)) {
            boolean available = device.hasExtension(types.ofOpenCl(m.type()).extension())
                    && (!m.isAsType() || device.hasExtension(types.ofOpenCl(m.toType()).extension()));
            boolean sameSize = !m.isAsType() || types.ofOpenCl(m.type()).bytes() * memoryTables.storage(m.n())
                    == types.ofOpenCl(m.toType()).bytes() * memoryTables.storage(m.toN());
            if (available && sameSize) {
                memoryCapabilities.add(m.name());
            }
        }
        boolean fp16 = device.hasExtension("cl_khr_fp16");
        List<String> modes = List.of("rn", "rz", "ru", "rd");
        for (OpenClTypes.Type src : types.all()) {
            for (OpenClTypes.Type dst : types.all()) {
                boolean fromFloating = FLOATING.contains(src.format());
                if (!device.hasExtension(src.extension()) || !device.hasExtension(dst.extension())) {
                    // Without cl_khr_fp16, half is still a memory format: vstore_half_rtX from float and
                    // double (where the device has it), vload_half to float.
                    if (!fp16 && fromFloating && dst.format().equals("half") && device.hasExtension(src.extension())) {
                        modes.forEach(mode -> capabilities.add(new Capability(src.format(), "half", mode, "nosat")));
                    } else if (!fp16 && src.format().equals("half") && dst.format().equals("float")) {
                        capabilities.add(new Capability("half", "float", "rn", "nosat"));
                    }
                } else if (FLOATING.contains(dst.format())) {
                    modes.forEach(mode -> capabilities.add(new Capability(src.format(), dst.format(), mode, "nosat")));
                } else if (fromFloating) {
                    modes.forEach(mode -> capabilities.add(new Capability(src.format(), dst.format(), mode, "sat")));
                } else {
                    capabilities.add(new Capability(src.format(), dst.format(), "rz", "wrap"));
                    capabilities.add(new Capability(src.format(), dst.format(), "rz", "sat"));
                }
            }
        }
    }

    @Override
    public String identity() {
        return "OpenCL device " + device.description() + "; each conversion through convert_* at widths "
                + widths.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + ", "
                + (allSpellings ? "every spelling" : "its own name only") + "; memory functions in "
                + spaces.stream().map(MemoryKernel.Space::qualifier).collect(java.util.stream.Collectors.joining(" "));
    }

    /** Told the effective state; the form and CTRL variants would only repeat the same answers. */
    @Override
    public boolean programsSaturation() {
        return false;
    }

    @Override
    public List<Capability> capabilities() {
        return List.copyOf(capabilities);
    }

    /** The kernel of a case, with every form of its conversion; null where half is a memory format only. */
    ConvertKernel convertKernel(CaseKey c) {
        if (!device.hasExtension("cl_khr_fp16") && (c.from().equals("half") || c.to().equals("half"))) {
            return null;
        }
        OpenClTypes.Type dst = types.ofFormat(c.to());
        boolean signed = !dst.opencl().startsWith("u");
        return new ConvertKernel(types.ofFormat(c.from()).opencl(), dst.opencl(), 8 * dst.bytes(), signed,
                reference.resolve(c).saturation() == Saturation.SAT, tables.castName(Rounding.named(c.rounding())), widths,
                        allSpellings);
    }

    /** The pragmas a kernel over these formats needs. */
    private String formatPragmas(CaseKey c) {
        return pragmas(types.ofFormat(c.from()).opencl(), types.ofFormat(c.to()).opencl());
    }

    /** Without cl_khr_fp16 half is a memory format: vstore_half_rtX from float and double, vload_half to float. */
    private String halfMemoryKernel(CaseKey c) {
        OpenClTypes.Type src = types.ofFormat(c.from());
        OpenClTypes.Type dst = types.ofFormat(c.to());
        String head = (c.from().equals("double") ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "")
                + "__kernel void k(__global const " + (c.from().equals("half") ? "half" : src.opencl()) + " *in, __global "
                + (c.to().equals("half") ? "half" : dst.opencl()) + " *out, int count) {\n  size_t i = get_global_id(0);\n"
                + "  if (i >= (size_t)count) return;\n  ";
        return head + (c.to().equals("half")
                ? "vstore_half" + tables.castName(Rounding.named(c.rounding())) + "(in[i], i, out);\n}\n"
                : "out[i] = vload_half(i, in);\n}\n");
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        int inWidth = 8 * types.ofFormat(c.from()).bytes();
        int outWidth = 8 * types.ofFormat(c.to()).bytes();
        ConvertKernel k = convertKernel(c);
        if (k == null) {
            byte[] out = new byte[count * VectorBytes.of(outWidth)];
            device.execute(device.kernel(halfMemoryKernel(c)), count, VectorFiles.pack(inputs, count, inWidth),
                    new OpenClDevice.Output(out), count);
            VectorFiles.unpack(out, outWidth, outputs, count);
            return;
        }
        var kernel = device.kernel(k.source(formatPragmas(c)));
        List<ConvertKernel.Form> forms = k.forms();
        int[] starts = k.slices(count);
        for (int f = 0; f < forms.size(); f++) {
            int n = starts[f + 1] - starts[f];
            if (n == 0) {
                continue;
            }
            byte[] out = new byte[n * VectorBytes.of(outWidth)];
            device.execute(kernel, k.items(forms.get(f), n),
                    VectorFiles.pack(Arrays.copyOfRange(inputs, starts[f], starts[f + 1]), n, inWidth),
                    new OpenClDevice.Output(out), f, n);
            long[] part = new long[n];
            VectorFiles.unpack(out, outWidth, part, n);
            System.arraycopy(part, 0, outputs, starts[f], n);
        }
    }

    @Override
    public List<String> memoryCapabilities() {
        return memoryCapabilities;
    }

    private String pragmas(String... types) {
        StringBuilder s = new StringBuilder();
        for (String t : types) {
            String extension = this.types.ofOpenCl(t).extension();
            if (!extension.isEmpty() && s.indexOf(extension) < 0) {
                s.append("#pragma OPENCL EXTENSION ").append(extension).append(" : enable\n");
            }
        }
        return s.toString();
    }

    /** The as_type kernel of a case: the operand's bytes reinterpreted, component by component. */
    private String asTypeKernel(MemoryCase m) {
        int n = m.n();
        String t = m.type();
        String to = m.toType();
        return pragmas(t, to) + "__kernel void k(__global const " + t + " *in, __global " + to + " *out, int count) {\n"
                + "  size_t i = get_global_id(0);\n  if (i >= (size_t)count) return;\n  __global const " + t + " *x = in + i * "
                        + memoryTables.storage(n)
                + ";\n  " + MemoryCase.vectorType(t, n) + " v = " + MemoryKernel.build(t, n, "x") + ";\n  "
                + MemoryCase.vectorType(to, m.toN()) + " r = as_" + MemoryCase.vectorType(to, m.toN()) + "(v);\n"
                + "  __global " + to + " *o = out + i * " + memoryTables.storage(m.toN()) + ";\n  "
                + MemoryKernel.components("o", "r", m.toN()) + "\n}\n";
    }

    /** The kernel of a vector memory function's case, in each address space it takes; image: the memory's bytes. */
    MemoryKernel memoryKernel(MemoryCase m, int image) {
        OpenClTables.Function f = memoryTables.function(m.function());
        String memoryType = f.memoryType().equals("gentype") ? m.type() : f.memoryType();
        String valueType = f.store() || memoryType.equals(m.type()) ? m.type() : "float";
        return new MemoryKernel(memoryType, valueType, m.n(), m.functionName(), f.store(), image,
                MemoryKernel.spacesFor(f.store(), image, spaces));
    }

    @Override
    public void run(MemoryCase m, long[] pointers, long[] offsets, byte[][] memories, byte[][] data, byte[][] results,
                    int count) throws AdapterException {
        if (count == 0) {
            return;
        }
        if (m.isAsType()) {
            int size = types.ofOpenCl(m.toType()).bytes() * memoryTables.storage(m.toN());
            byte[] in = new byte[count * data[0].length];
            for (int i = 0; i < count; i++) {
                System.arraycopy(data[i], 0, in, i * data[0].length, data[i].length);
            }
            byte[] out = new byte[count * size];
            device.execute(device.kernel(asTypeKernel(m)), count, in, new OpenClDevice.Output(out), count);
            for (int i = 0; i < count; i++) {
                results[i] = Arrays.copyOfRange(out, i * size, (i + 1) * size);
            }
            return;
        }
        int image = memories[0].length;
        MemoryKernel k = memoryKernel(m, image);
        var kernel = device.kernel(k.source(pragmas(m.type())));
        int spaces = k.spaces().size();
        for (int s = 0; s < spaces; s++) { // a consecutive slice of the vectors per address space
            int from = (int) ((long) s * count / spaces);
            int to = (int) ((long) (s + 1) * count / spaces);
            if (to > from) {
                runSlice(k, kernel, s, from, to, pointers, offsets, memories, data, results);
            }
        }
    }

    private void runSlice(MemoryKernel k, org.jocl.cl_kernel kernel, int space, int from, int to, long[] pointers,
                          long[] offsets, byte[][] memories, byte[][] data, byte[][] results) throws AdapterException {
        int count = to - from;
        byte[] ptr = VectorFiles.pack(Arrays.copyOfRange(pointers, from, to), count, 64);
        byte[] off = VectorFiles.pack(Arrays.copyOfRange(offsets, from, to), count, 64);
        int spaceIndex = k.spaces().get(space).ordinal();
        if (!k.store()) {
            int size = types.ofOpenCl(k.valueType()).bytes() * k.n();
            byte[] out = new byte[count * size];
            device.executeEach(kernel, count, memories[0], new OpenClDevice.Output(out), ptr, off, memories[0], spaceIndex);
            for (int i = 0; i < count; i++) {
                results[from + i] = Arrays.copyOfRange(out, i * size, (i + 1) * size);
            }
            return;
        }
        int image = memories[from].length;
        int width = data[from].length;
        byte[] mem = new byte[count * image];
        byte[] values = new byte[count * width];
        for (int i = 0; i < count; i++) {
            System.arraycopy(memories[from + i], 0, mem, i * image, image);
            System.arraycopy(data[from + i], 0, values, i * width, width);
        }
        device.executeEach(kernel, count, new OpenClDevice.Output(mem), values, ptr, off, image, spaceIndex);
        for (int i = 0; i < count; i++) {
            results[from + i] = Arrays.copyOfRange(mem, i * image, (i + 1) * image);
        }
    }

    @Override
    public void close() {
        device.close();
    }
}
