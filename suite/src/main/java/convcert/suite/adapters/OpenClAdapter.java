package convcert.suite.adapters;

import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import convcert.suite.opencl.OpenClDevice;
import convcert.suite.opencl.OpenClTypes;
import convcert.suite.spi.AdapterContext;
import convcert.suite.spi.AdapterException;
import convcert.suite.spi.AdapterProvider;
import convcert.suite.spi.Capability;
import convcert.suite.spi.CaseKey;
import convcert.suite.spi.ConverterAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real OpenCL implementation (any platform: PoCL in CI), through JOCL: every case runs as an OpenCL
 * C kernel, convert_DST[_sat][_rtX](src), or vstore_half_rtX / vload_half where the device lacks
 * cl_khr_fp16. Capabilities follow the device's extensions. Options: platform=NAME (a substring),
 * device=INDEX. The OpenCL type names and rounding suffixes come from spec-tables/opencl.
 */
public final class OpenClAdapter implements ConverterAdapter {

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
            return new OpenClAdapter(new OpenClDevice(options.get("platform"), device), context);
        }
    }

    private static final List<String> FLOATING = List.of("float", "double", "half");

    private final OpenClDevice device;
    private final OpenClTypes types;
    private final SpecTables tables;
    private final List<Capability> capabilities = new ArrayList<>();

    OpenClAdapter(OpenClDevice device, AdapterContext context) {
        this.device = device;
        this.types = OpenClTypes.load(context.home());
        this.tables = SpecTables.load(context.home().resolve("spec-tables/opencl"));
        boolean fp16 = device.hasExtension("cl_khr_fp16");
        for (OpenClTypes.Type src : types.all()) {
            for (OpenClTypes.Type dst : types.all()) {
                if (src == dst || !device.hasExtension(src.extension()) && !storedAsHalf(src, dst, fp16)
                        || !device.hasExtension(dst.extension()) && !storedAsHalf(src, dst, fp16)) {
                    continue;
                }
                boolean toFloating = FLOATING.contains(dst.format());
                boolean fromFloating = FLOATING.contains(src.format());
                if (toFloating) {
                    for (String mode : List.of("rn", "rz", "ru", "rd")) {
                        if (!(dst.format().equals("half") && !fp16) || src.format().equals("float")
                                || src.format().equals("double")) {
                            capabilities.add(new Capability(src.format(), dst.format(), src.format().equals("half") && !fp16
                                    ? "rn" : mode, "nosat"));
                        }
                    }
                } else if (fromFloating) {
                    for (String mode : List.of("rn", "rz", "ru", "rd")) {
                        capabilities.add(new Capability(src.format(), dst.format(), mode, "sat"));
                    }
                } else {
                    capabilities.add(new Capability(src.format(), dst.format(), "rz", "wrap"));
                    capabilities.add(new Capability(src.format(), dst.format(), "rz", "sat"));
                }
            }
        }
        capabilities.removeIf(c -> c.from().equals("half") && !fp16 && !c.to().equals("float"));
    }

    /** Without cl_khr_fp16, half is still a memory format: vstore_half from float/double, vload_half to float. */
    private static boolean storedAsHalf(OpenClTypes.Type src, OpenClTypes.Type dst, boolean fp16) {
        return !fp16 && ((dst.format().equals("half") && (src.format().equals("float") || src.format().equals("double")))
                || (src.format().equals("half") && dst.format().equals("float")));
    }

    public String deviceDescription() {
        return device.description();
    }

    @Override
    public List<Capability> capabilities() {
        return capabilities.stream().distinct().toList();
    }

    /** The OpenCL C kernel of a case. */
    String kernelSource(CaseKey c) {
        OpenClTypes.Type src = types.ofFormat(c.from());
        OpenClTypes.Type dst = types.ofFormat(c.to());
        String suffix = tables.castName(Rounding.parse(c.rounding()));
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
        int inBytes = types.ofFormat(c.from()).bytes();
        int outBytes = types.ofFormat(c.to()).bytes();
        byte[] out = new byte[count * outBytes];
        device.run(device.kernel(kernelSource(c)), OpenClDevice.pack(inputs, count, inBytes), out, count);
        OpenClDevice.unpack(out, outputs, count, outBytes);
    }

    @Override
    public void close() {
        device.close();
    }
}
