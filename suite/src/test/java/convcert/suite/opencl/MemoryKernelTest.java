package convcert.suite.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.suite.opencl.MemoryKernel.Space;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The address spaces an OpenCL vector memory case goes through, and the kernel that holds them. */
class MemoryKernelTest {

    private static final List<Space> ALL = List.of(Space.values());

    @Test
    void loadsReadEverySpaceAndStoresNeverWriteConstantMemory() {
        assertEquals(ALL, MemoryKernel.spacesFor(false, 512, ALL));
        assertEquals(List.of(Space.GLOBAL, Space.LOCAL, Space.PRIVATE), MemoryKernel.spacesFor(true, 512, ALL));
        assertEquals(List.of(Space.GLOBAL), MemoryKernel.spacesFor(false, 2 * 65536 + 32, ALL),
                "every half value is too large an image to copy into __local or __private memory");
        assertEquals(List.of(Space.LOCAL), MemoryKernel.spacesFor(false, 512, List.of(Space.LOCAL)));
    }

    @Test
    void aLoadKernelCopiesTheImageIntoEachSpaceAndLoadsFromThere() {
        String source = new MemoryKernel("float", "float", 4, "vload4", false, 512, ALL).source("");
        assertTrue(source.contains("__local ulong lwords[64];") && source.contains("ulong pwords[64];"), source);
        assertTrue(source.contains("case 1: {\n    for (int b = 0; b < 512; b++) l[b] = m[b];\n"
                + "    v = vload4(off[i], (__local const float *)(l + ptr[i]));\n"), source);
        assertTrue(source.contains("v = vload4(off[i], (__private const float *)(p + ptr[i]));"), source);
        assertTrue(source.contains("v = vload4(off[i], (__constant const float *)(cmem + ptr[i]));"), source);
        assertTrue(source.contains("o[0] = v.s0; o[1] = v.s1; o[2] = v.s2; o[3] = v.s3;"), source);
    }

    @Test
    void aStoreKernelCopiesTheImageBackAfterStoringInLocalOrPrivateMemory() {
        String source = new MemoryKernel("half", "float", 3, "vstore_half3_rtz", true, 512,
                MemoryKernel.spacesFor(true, 512, ALL)).source("");
        assertTrue(source.contains("vstore_half3_rtz((float3)(d[0], d[1], d[2]), off[i], (__private half *)(p + ptr[i]));\n"
                + "    for (int b = 0; b < image; b++) m[b] = p[b];"), source);
        assertFalse(source.contains("cmem"), "a store has no __constant space");
        String global = new MemoryKernel("int", "int", 2, "vstore2", true, 512, List.of(Space.GLOBAL)).source("");
        assertFalse(global.contains("lwords") || global.contains("pwords"), global);
    }
}
