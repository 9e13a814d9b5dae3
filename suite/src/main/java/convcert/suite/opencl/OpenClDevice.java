package convcert.suite.opencl;

import static org.jocl.CL.*;

import convcert.spi.AdapterException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;

/**
 * One OpenCL device, through JOCL: builds kernels from OpenCL C source (cached) and runs a kernel of
 * the form k(global const IN *in, global OUT *out, ...) over byte buffers.
 */
public final class OpenClDevice implements AutoCloseable {

    private final cl_device_id device;
    private final cl_context context;
    private final cl_command_queue queue;
    private final String description;
    private final String extensions;
    private final Map<String, cl_kernel> kernels = new HashMap<>();
    /** Each kernel's work-group size for execute: GROUP, or less where the device or the kernel allows less. */
    private final Map<cl_kernel, Long> groups = new HashMap<>();

    /**
     * Work-items per work-group of execute. Launched without one, PoCL sizes the group after the item
     * count and compiles the kernel anew for each size it meets (a cold run of the opencl ci set spent
     * more than half its minutes so); one size compiles each kernel once.
     */
    static final long GROUP = 64;

    public OpenClDevice(String platformFilter, int deviceIndex) throws AdapterException {
        try {
            CL.setExceptionsEnabled(true);
            int[] count = new int[1];
            clGetPlatformIDs(0, null, count);
            cl_platform_id[] platforms = new cl_platform_id[count[0]];
            clGetPlatformIDs(platforms.length, platforms, null);
            cl_platform_id platform = null;
            StringBuilder seen = new StringBuilder();
            for (cl_platform_id p : platforms) {
                String name = info(p, CL_PLATFORM_NAME);
                seen.append(seen.isEmpty() ? "" : ", ").append(name);
                if (platform == null && (platformFilter == null || name.toLowerCase().contains(platformFilter.toLowerCase()))) {
                    platform = p;
                }
            }
            if (platform == null) {
                throw new AdapterException("no OpenCL platform" + (platformFilter == null ? "" : " matching '" + platformFilter
                        + "'") + " (found: " + (seen.isEmpty() ? "none; install an ICD such as pocl-opencl-icd" : seen) + ")");
            }
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, null, count);
            cl_device_id[] devices = new cl_device_id[count[0]];
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices.length, devices, null);
            if (deviceIndex >= devices.length) {
                throw new AdapterException("platform " + info(platform, CL_PLATFORM_NAME) + " has " + devices.length + " devices");
            }
            device = devices[deviceIndex];
            cl_context_properties properties = new cl_context_properties();
            properties.addProperty(CL_CONTEXT_PLATFORM, platform);
            context = clCreateContext(properties, 1, new cl_device_id[] {device}, null, null, null);
            queue = clCreateCommandQueue(context, device, 0, null);
            extensions = deviceInfo(CL_DEVICE_EXTENSIONS);
            description = info(platform, CL_PLATFORM_NAME) + " " + info(platform, CL_PLATFORM_VERSION) + " / "
                    + deviceInfo(CL_DEVICE_NAME) + " / " + deviceInfo(CL_DEVICE_VERSION);
        } catch (CLException | UnsatisfiedLinkError e) {
            throw new AdapterException("OpenCL is not usable: " + e.getMessage());
        }
    }

    private static String info(cl_platform_id p, int what) {
        long[] size = new long[1];
        clGetPlatformInfo(p, what, 0, null, size);
        byte[] buffer = new byte[(int) size[0]];
        clGetPlatformInfo(p, what, buffer.length, Pointer.to(buffer), null);
        return new String(buffer, 0, Math.max(0, buffer.length - 1)).strip();
    }

    private String deviceInfo(int what) {
        long[] size = new long[1];
        clGetDeviceInfo(device, what, 0, null, size);
        byte[] buffer = new byte[(int) size[0]];
        clGetDeviceInfo(device, what, buffer.length, Pointer.to(buffer), null);
        return new String(buffer, 0, Math.max(0, buffer.length - 1)).strip();
    }

    public String description() {
        return description;
    }

    public boolean hasExtension(String extension) {
        return extension == null || extension.isEmpty() || (" " + extensions + " ").contains(" " + extension + " ");
    }

    /** Compiles (once) and returns the kernel named k of the source. */
    public cl_kernel kernel(String source) throws AdapterException {
        cl_kernel k = kernels.get(source);
        if (k != null) {
            return k;
        }
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {source}, null, null);
        CompilerStderr.Caught build = CompilerStderr.during(() -> clBuildProgram(program, 0, null, null, null, null));
        if (build.failure() instanceof CLException && buildLog(program).contains("unable to rename temporary")) {
            // PoCL's kernel cache lost a temporary file of its own (seen once in CI): build once more; a kernel
            // that really does not build fails again below
            build = CompilerStderr.during(() -> clBuildProgram(program, 0, null, null, null, null));
        }
        if (build.failure() instanceof CLException) {
            // The compiler names its temporary files under the user's home: reports show '~' instead.
            String text = (buildLog(program) + (build.stderr().isEmpty() ? "" : "\n" + build.stderr()))
                    .replace(System.getProperty("user.home") + "/", "~/");
            throw new AdapterException("kernel does not build: " + text + "\n" + source);
        } else if (build.failure() != null) {
            throw build.failure();
        }
        // A build that succeeded keeps its warnings where the user sees them.
        if (!build.stderr().isEmpty()) {
            System.err.println(build.stderr());
        }
        k = clCreateKernel(program, "k", null);
        long[] most = new long[1];
        clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(most), null);
        groups.put(k, Math.max(1, Math.min(GROUP, most[0])));
        kernels.put(source, k);
        return k;
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] log = new byte[(int) size[0]];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        return new String(log).strip();
    }

    /** A read-write buffer whose contents are read back after the kernel. */
    public record Output(byte[] data) {
    }

    /**
     * Runs kernel k over 'items' work-items with the given arguments in order: byte[] (a read-only
     * buffer), Output (a read-write buffer, read back), Integer (an int argument). The items run in
     * work-groups of one size (GROUP), so their number is rounded up to a multiple of it: a kernel
     * leaves alone what lies past its own count.
     */
    public void execute(cl_kernel kernel, long items, Object... args) throws AdapterException {
        long group = groups.get(kernel);
        launch(kernel, (items + group - 1) / group * group, new long[] {group}, args);
    }

    /** As execute, one work-item per work-group: a kernel's __local memory is then each item's own. */
    public void executeEach(cl_kernel kernel, long items, Object... args) throws AdapterException {
        launch(kernel, items, new long[] {1}, args);
    }

    private void launch(cl_kernel kernel, long items, long[] local, Object... args) throws AdapterException {
        List<cl_mem> buffers = new ArrayList<>();
        try {
            for (int a = 0; a < args.length; a++) {
                if (args[a] instanceof Integer value) {
                    clSetKernelArg(kernel, a, Sizeof.cl_int, Pointer.to(new int[] {value}));
                    continue;
                }
                byte[] bytes = args[a] instanceof Output o ? o.data() : (byte[]) args[a];
                byte[] backing = bytes.length == 0 ? new byte[1] : bytes;
                cl_mem mem = clCreateBuffer(context, (args[a] instanceof Output ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY)
                        | CL_MEM_COPY_HOST_PTR, backing.length, Pointer.to(backing), null);
                buffers.add(mem);
                clSetKernelArg(kernel, a, Sizeof.cl_mem, Pointer.to(mem));
            }
            if (items > 0) {
                clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {items}, local, 0, null, null);
            }
            int b = 0;
            for (Object arg : args) {
                if (arg instanceof Integer) {
                    continue;
                }
                cl_mem mem = buffers.get(b++);
                if (arg instanceof Output o && o.data().length > 0) {
                    clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, o.data().length, Pointer.to(o.data()), 0, null, null);
                }
            }
            clFinish(queue);
        } catch (CLException e) {
            throw new AdapterException("OpenCL call failed: " + e.getMessage());
        } finally {
            buffers.forEach(CL::clReleaseMemObject);
        }
    }

    @Override
    public void close() {
        kernels.values().forEach(CL::clReleaseKernel);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
}
