package convcert.spi;

/**
 * One OpenCL memory or reinterpretation operation: a function of vector-functions.csv (or as_type),
 * the OpenCL type of the value and its element count, the rounding suffix of vstore(a)_half (rte,
 * rtz, rtp, rtn; empty for the default), and for as_type the result type and count.
 */
public record MemoryCase(String function, String type, int n, String rounding, String toType, int toN) {

    public static MemoryCase of(String function, String type, int n, String rounding) {
        return new MemoryCase(function, type, n, rounding, "", 0);
    }

    public static MemoryCase asType(String from, int n, String to, int m) {
        return new MemoryCase("as_type", from, n, "", to, m);
    }

    public boolean isAsType() {
        return function.equals("as_type");
    }

    public boolean isStore() {
        return function.startsWith("vstore");
    }

    /** The OpenCL C name: vload4, vstore_half3_rtz, vloada_half, as_type. */
    public String functionName() {
        if (isAsType()) {
            return "as_" + vectorType(toType, toN);
        }
        String width = n == 1 ? "" : String.valueOf(n);
        return function + width + (rounding.isEmpty() ? "" : "_" + rounding);
    }

    public static String vectorType(String type, int n) {
        return type + (n == 1 ? "" : String.valueOf(n));
    }

    /** "vload4 int4", "vstore_half3_rtz float3", "as_int4 float4". */
    public String name() {
        return functionName() + " " + vectorType(type, n);
    }
}
