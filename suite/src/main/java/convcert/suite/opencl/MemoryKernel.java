package convcert.suite.opencl;

import convcert.spi.MemoryCase;
import java.util.List;

/**
 * The kernel of an OpenCL vector memory case (vloadn, vstoren, vload(a)_half, vstore(a)_half), in every
 * address space a function takes a pointer to: loads read __global, __local, __private and __constant
 * memory, stores write the first three. The image is copied into a __local or __private buffer of its
 * own, used there and, after a store, copied back, so every space answers with the same bytes. One
 * kernel holds all spaces (argument 'space'); the adapter gives each space a consecutive slice of a
 * batch's vectors, in the order of {@link #spaces()}, and runs it one work-item per work-group.
 *
 * @param memoryType the element type in memory (the value type, or half)
 * @param valueType  the type loaded or stored (float for the half functions)
 * @param call       the function's name with its width and rounding (vload4, vstore_half2_rte, ...)
 * @param image      bytes of the memory image; a space other than __global needs at most LOCAL_BYTES
 */
public record MemoryKernel(String memoryType, String valueType, int n, String call, boolean store, int image,
                           List<Space> spaces) {

    /** The address spaces, with the qualifier of a pointer into each. */
    public enum Space {
        GLOBAL("__global"), LOCAL("__local"), PRIVATE("__private"), CONSTANT("__constant");

        private final String qualifier;

        Space(String qualifier) {
            this.qualifier = qualifier;
        }

        public String qualifier() {
            return qualifier;
        }
    }

    /** The largest image copied into a __local or __private buffer (OpenClVectors.IMAGE). */
    public static final int LOCAL_BYTES = 512;

    /** The spaces a case goes through: a store never writes __constant; an image too large for a copy stays global. */
    public static List<Space> spacesFor(boolean store, int image, List<Space> wanted) {
        return wanted.stream().filter(s -> s == Space.GLOBAL || image <= LOCAL_BYTES && !(store && s == Space.CONSTANT))
                .toList();
    }

    public String source(String pragmas) {
        StringBuilder s = new StringBuilder(pragmas);
        if (store) {
            s.append("__kernel void k(__global uchar *mem, __global const ").append(valueType)
                    .append(" *data, __global const long *ptr, __global const long *off, int image, int space) {\n")
                    .append("  size_t i = get_global_id(0);\n  __global uchar *m = mem + i * image;\n  __global const ")
                    .append(valueType).append(" *d = data + i * ").append(n).append(";\n");
        } else {
            String result = valueType;
            s.append("__kernel void k(__global const uchar *mem, __global ").append(result)
                    .append(" *out, __global const long *ptr, __global const long *off, __constant uchar *cmem, int space) {\n")
                    .append("  size_t i = get_global_id(0);\n  __global const uchar *m = mem;\n  __global ").append(result)
                    .append(" *o = out + i * ").append(n).append(";\n  ").append(MemoryCase.vectorType(result, n)).append(" v;\n");
        }
        if (spaces.contains(Space.LOCAL)) { // ulong storage: aligned for every vector type
            s.append("  __local ulong lwords[").append(LOCAL_BYTES / 8).append("];\n  __local uchar *l = (__local uchar *)lwords;\n");
        }
        if (spaces.contains(Space.PRIVATE)) {
            s.append("  ulong pwords[").append(LOCAL_BYTES / 8).append("];\n  uchar *p = (uchar *)pwords;\n");
        }
        s.append("  switch (space) {\n");
        for (Space space : spaces) {
            s.append("  case ").append(space.ordinal()).append(": {\n").append(body(space)).append("    break;\n  }\n");
        }
        return s.append("  }\n}\n").toString();
    }

    private String body(Space space) {
        String base = switch (space) {
            case GLOBAL -> "m";
            case LOCAL -> "l";
            case PRIVATE -> "p";
            case CONSTANT -> "cmem";
        };
        String length = store ? "image" : String.valueOf(image);
        String copyIn = space == Space.LOCAL || space == Space.PRIVATE
                ? "    for (int b = 0; b < " + length + "; b++) " + base + "[b] = m[b];\n" : "";
        String pointer = "(" + space.qualifier() + (store ? " " : " const ") + memoryType + " *)(" + base + " + ptr[i])";
        if (!store) {
            return copyIn + "    v = " + call + "(off[i], " + pointer + ");\n    " + components("o", "v", n) + "\n";
        }
        String copyOut = copyIn.isEmpty() ? "" : "    for (int b = 0; b < image; b++) m[b] = " + base + "[b];\n";
        return copyIn + "    " + call + "(" + build(valueType, n, "d") + ", off[i], " + pointer + ");\n" + copyOut;
    }

    /** "o[0] = v.s0; o[1] = v.s1; ..." writes of n components into o[]. */
    public static String components(String target, String vector, int n) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < n; k++) {
            s.append(target).append('[').append(k).append("] = ").append(vector).append(n == 1 ? "" : ".s" + Integer.toHexString(k))
                    .append("; ");
        }
        return s.toString();
    }

    /** "(int4)(d[0], d[1], d[2], d[3])", or "d[0]" for one element. */
    public static String build(String type, int n, String array) {
        if (n == 1) {
            return array + "[0]";
        }
        StringBuilder s = new StringBuilder("(" + type + n + ")(");
        for (int k = 0; k < n; k++) {
            s.append(k == 0 ? "" : ", ").append(array).append('[').append(k).append(']');
        }
        return s.append(')').toString();
    }
}
