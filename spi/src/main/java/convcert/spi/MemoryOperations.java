package convcert.spi;

import java.util.List;

/**
 * OpenCL vector-memory functions and as_type (spec-tables/opencl): an adapter that implements them
 * implements this beside ConverterAdapter. Vector i is pointers[i] (p's byte offset into the memory
 * image), offsets[i] (the function's offset argument), memories[i] (the image a load reads or a store
 * starts from; vectors may share one array) and data[i] (the value a store writes or as_type
 * reinterprets). results[i] receives the loaded value's bytes, the image after a store, or the
 * reinterpreted bytes; null says the implementation refused the vector (an adapter that checks
 * alignment refuses misaligned addresses). Misaligned vectors are sent only to adapters whose
 * checksAlignment() is true.
 */
public interface MemoryOperations {

    /** Case names it implements (MemoryCase.name(): "vload4 int4", "vstore_half3_rtz float3", "as_int4 float4"). */
    List<String> memoryCapabilities();

    void run(MemoryCase c, long[] pointers, long[] offsets, byte[][] memories, byte[][] data, byte[][] results, int count)
            throws AdapterException;
}
