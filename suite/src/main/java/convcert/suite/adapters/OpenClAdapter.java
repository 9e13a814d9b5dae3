package convcert.suite.adapters;

import convcert.opencl.OpenClTables;
import convcert.opencl.OpenClTypes;
import convcert.opencl.OpenClVectors;
import convcert.reference.Reference;
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
 * C kernel, convert_DST[_sat][_rtX](src), or vstore_half_rtX / vload_half where the device lacks
 * cl_khr_fp16. Capabilities follow the device's extensions. Options: platform=NAME (a substring),
 * device=INDEX. The OpenCL type names and rounding suffixes come from spec-tables/opencl.
 */
public final class OpenClAdapter implements ConverterAdapter, MemoryOperations {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "opencl";
        }

        @Override
        public String description() {
            return "an OpenCL device through JOCL: convert_*, vload_half/vstore_half kernels (options platform=, device=)";
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
            return new OpenClAdapter(new OpenClDevice(options.get("platform"), device), context);
        }
    }

    private static final List<String> FLOATING = List.of("float", "double", "half");

    private final OpenClDevice device;
    private final OpenClTypes types;
    private final SpecTables tables;
    private final List<Capability> capabilities = new ArrayList<>();
    private final OpenClTables memoryTables;
    private final List<String> memoryCapabilities = new ArrayList<>();

    OpenClAdapter(OpenClDevice device, AdapterContext context) {
        this.device = device;
        // The profile under certification (--profile or --tables), which must carry OpenCL's type table.
        this.tables = SuiteContext.referenceOf(context).tables();
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
                if (src == dst) {
                    continue;
                }
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
        return "OpenCL device " + device.description();
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

    /** The OpenCL C kernel of a case. */
    String kernelSource(CaseKey c) {
        OpenClTypes.Type src = types.ofFormat(c.from());
        OpenClTypes.Type dst = types.ofFormat(c.to());
        String suffix = tables.castName(Reference.rounding(c.rounding()));
        boolean fp16 = device.hasExtension("cl_khr_fp16");
        StringBuilder s = new StringBuilder();
        if (c.from().equals("double") || c.to().equals("double")) {
            s.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        }
        if (fp16 && (c.from().equals("half") || c.to().equals("half"))) {
            s.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
        }
        s.append("__kernel void k(__global const ").append(src.opencl()).append(" *in, __global ").append(dst.opencl())
                .append(" *out) {\n  size_t i = get_global_id(0);\n  ");
        if (!fp16 && c.to().equals("half")) {
            s.append("vstore_half").append(suffix).append("(in[i], i, out);\n}\n");
        } else if (!fp16 && c.from().equals("half")) {
            s.append("out[i] = vload_half(i, in);\n}\n");
        } else {
            boolean integerDestination = !FLOATING.contains(c.to());
            boolean exactIntegerPair = integerDestination && !FLOATING.contains(c.from());
            s.append("out[i] = convert_").append(dst.opencl()).append(c.state().equals("sat") ? "_sat" : "")
                    .append(exactIntegerPair ? "" : suffix).append("(in[i]);\n}\n");
        }
        return s.toString();
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        int inWidth = 8 * types.ofFormat(c.from()).bytes();
        int outWidth = 8 * types.ofFormat(c.to()).bytes();
        byte[] out = new byte[count * VectorBytes.of(outWidth)];
        device.execute(device.kernel(kernelSource(c)), count, VectorFiles.pack(inputs, count, inWidth),
                new OpenClDevice.Output(out));
        VectorFiles.unpack(out, outWidth, outputs, count);
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

    /** "v.s0, v.s1, ..." writes of n components into o[]. */
    private static String components(String target, String vector, int n) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < n; k++) {
            s.append(target).append('[').append(k).append("] = ").append(vector).append(n == 1 ? "" : ".s" + Integer.toHexString(k))
                    .append("; ");
        }
        return s.toString();
    }

    private static String build(String type, int n, String array) {
        if (n == 1) {
            return array + "[0]";
        }
        StringBuilder s = new StringBuilder("(" + type + n + ")(");
        for (int k = 0; k < n; k++) {
            s.append(k == 0 ? "" : ", ").append(array).append('[').append(k).append(']');
        }
        return s.append(')').toString();
    }

    /** The kernel of a memory case; see memoryRun for its arguments. */
    String memoryKernel(MemoryCase m) {
        OpenClTables.Function f = memoryTables.function(m.function());
        int n = m.n();
        String t = m.type();
        if (m.isAsType()) {
            String to = m.toType();
            return pragmas(t, to) + "__kernel void k(__global const " + t + " *in, __global " + to + " *out) {\n"
                    + "  size_t i = get_global_id(0);\n  __global const " + t + " *x = in + i * " + memoryTables.storage(n)
                    + ";\n  " + MemoryCase.vectorType(t, n) + " v = " + build(t, n, "x") + ";\n  "
                    + MemoryCase.vectorType(to, m.toN()) + " r = as_" + MemoryCase.vectorType(to, m.toN()) + "(v);\n"
                    + "  __global " + to + " *o = out + i * " + memoryTables.storage(m.toN()) + ";\n  "
                    + components("o", "r", m.toN()) + "\n}\n";
        }
        String memoryType = f.memoryType().equals("gentype") ? t : f.memoryType();
        String call = m.functionName();
        String pointer = "(__global " + (f.store() ? "" : "const ") + memoryType + " *)(mem + " + (f.store() ? "i * image + " : "")
                + "ptr[i])";
        if (!f.store()) {
            String result = memoryType.equals(t) ? t : "float";
            return pragmas(t) + "__kernel void k(__global const uchar *mem, __global " + result
                    + " *out, __global const long *ptr, __global const long *off) {\n  size_t i = get_global_id(0);\n  "
                    + MemoryCase.vectorType(result, n) + " v = " + call + "(off[i], " + pointer + ");\n  __global " + result
                    + " *o = out + i * " + n + ";\n  " + components("o", "v", n) + "\n}\n";
        }
        return pragmas(t) + "__kernel void k(__global uchar *mem, __global const " + t
                + " *data, __global const long *ptr, __global const long *off, int image) {\n  size_t i = get_global_id(0);\n"
                + "  __global const " + t + " *d = data + i * " + n + ";\n  " + call + "(" + build(t, n, "d") + ", off[i], "
                + pointer + ");\n}\n";
    }

    @Override
    public void run(MemoryCase m, long[] pointers, long[] offsets, byte[][] memories, byte[][] data, byte[][] results,
                    int count) throws AdapterException {
        if (count == 0) {
            return;
        }
        var kernel = device.kernel(memoryKernel(m));
        OpenClTables.Function f = m.isAsType() ? null : memoryTables.function(m.function());
        if (m.isAsType()) {
            int size = types.ofOpenCl(m.toType()).bytes() * memoryTables.storage(m.toN());
            byte[] in = new byte[count * data[0].length];
            for (int i = 0; i < count; i++) {
                System.arraycopy(data[i], 0, in, i * data[0].length, data[i].length);
            }
            byte[] out = new byte[count * size];
            device.execute(kernel, count, in, new OpenClDevice.Output(out));
            for (int i = 0; i < count; i++) {
                results[i] = Arrays.copyOfRange(out, i * size, (i + 1) * size);
            }
            return;
        }
        byte[] ptr = VectorFiles.pack(pointers, count, 64);
        byte[] off = VectorFiles.pack(offsets, count, 64);
        if (!f.store()) {
            int size = (f.memoryType().equals("gentype") ? types.ofOpenCl(m.type()).bytes() : 4) * m.n();
            byte[] out = new byte[count * size];
            device.execute(kernel, count, memories[0], new OpenClDevice.Output(out), ptr, off);
            for (int i = 0; i < count; i++) {
                results[i] = Arrays.copyOfRange(out, i * size, (i + 1) * size);
            }
            return;
        }
        int image = memories[0].length;
        byte[] mem = new byte[count * image];
        byte[] values = new byte[count * data[0].length];
        for (int i = 0; i < count; i++) {
            System.arraycopy(memories[i], 0, mem, i * image, image);
            System.arraycopy(data[i], 0, values, i * data[0].length, data[i].length);
        }
        device.execute(kernel, count, new OpenClDevice.Output(mem), values, ptr, off, image);
        for (int i = 0; i < count; i++) {
            results[i] = Arrays.copyOfRange(mem, i * image, (i + 1) * image);
        }
    }

    @Override
    public void close() {
        device.close();
    }
}
