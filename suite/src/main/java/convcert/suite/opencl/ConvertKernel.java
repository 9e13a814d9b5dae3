package convcert.suite.opencl;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenCL C spellings one conversion case is certified through, and the kernel that holds them all.
 * OpenCL C gives one conversion many names: convert_DST and convert_DSTn for n = 2, 3, 4, 8, 16, with
 * or without a rounding modifier where the case's mode is the destination's default (rtz to integers,
 * rte to floating types), any modifier between integer types (they convert exactly), for a value in
 * range without _sat where the case has it, and the implicit conversion of an assignment (C's rules:
 * the default rounding, truncation to an integer) where it means the same. Each spelling at a width is a form; a batch's
 * elements are split into consecutive slices in the order of forms, so every form answers part of
 * every batch large enough to reach it and the element's index says which form answered it.
 *
 * @param src      the source's OpenCL type (float, uint, ...)
 * @param dst      the destination's OpenCL type
 * @param sat      whether the case is saturated (_sat)
 * @param modifier the case's rounding modifier (_rte, _rtz, _rtp, _rtn)
 */
public record ConvertKernel(String src, String dst, int dstBits, boolean dstSigned, boolean sat, String modifier,
                            List<Integer> widths, boolean allSpellings) {

    /** The vector widths of OpenCL C besides the scalar. */
    public static final List<Integer> WIDTHS = List.of(1, 2, 3, 4, 8, 16);
    /** The floating types, whose OpenCL names are their formats' names too. */
    public static final List<String> FLOATING = List.of("float", "double", "half");
    private static final List<String> MODIFIERS = List.of("_rte", "_rtz", "_rtp", "_rtn");

    /** One form: a spelling of the conversion at a vector width; spelling IN_RANGE is the in-range one. */
    public record Form(int width, String spelling) {
        public String label() {
            return spelling + (width == 1 ? "" : " x" + width);
        }
    }

    static final String IN_RANGE = "in-range";
    static final String IMPLICIT = "implicit";

    /**
     * Every form of the case, in the order slices take them: the case's own name at every width, each
     * other spelling scalar (a width multiplies the kernel's code, and PoCL compiles it for seconds).
     */
    public List<Form> forms() {
        List<Form> forms = new ArrayList<>();
        List<String> spellings = spellings();
        for (int width : widths) {
            forms.add(new Form(width, spellings.getFirst()));
        }
        for (String spelling : spellings.subList(1, spellings.size())) {
            forms.add(new Form(1, spelling));
        }
        boolean toInteger = FLOATING.contains(src) && !FLOATING.contains(dst);
        if (allSpellings && sat && toInteger) {
            forms.add(new Form(1, IN_RANGE));
        }
        boolean defaultMode = modifier.equals(defaultModifier());
        if (allSpellings && defaultMode && (!sat || toInteger)) {
            forms.add(new Form(1, IMPLICIT)); // in range only where the case saturates
        }
        return forms;
    }

    /** The function names a vector-capable form uses, without the width: convert_int_sat_rte, ... */
    private List<String> spellings() {
        String name = "convert_" + dst + "%s" + (sat ? "_sat" : "");
        boolean integers = !FLOATING.contains(src) && !FLOATING.contains(dst);
        List<String> spellings = new ArrayList<>();
        spellings.add(name + (integers ? "" : modifier));
        if (allSpellings && integers) {
            MODIFIERS.forEach(m -> spellings.add(name + m)); // exact: every modifier gives the same result
        } else if (allSpellings && modifier.equals(defaultModifier())) {
            spellings.add(name); // no modifier: the destination's default rounding
        }
        return spellings;
    }

    /** The rounding of no modifier: _rte to a floating type, _rtz to an integer. */
    private String defaultModifier() {
        return FLOATING.contains(dst) ? "_rte" : "_rtz";
    }

    /** Where each form's slice of a batch of count elements starts; the last entry is count. */
    public int[] slices(int count) {
        int forms = forms().size();
        int[] starts = new int[forms + 1];
        for (int f = 0; f <= forms; f++) {
            starts[f] = (int) ((long) f * count / forms);
        }
        return starts;
    }

    /** Work-items a form needs for a slice of n elements: one per vector, the last one partial. */
    public long items(Form form, int n) {
        return (n + form.width() - 1) / form.width();
    }

    /**
     * The kernel: k(in, out, form, count) runs form number 'form' over count elements, from as many
     * work-items as the form needs (items) or more.
     */
    public String source(String pragmas) {
        StringBuilder s = new StringBuilder(pragmas).append("__kernel void k(__global const ").append(src)
                .append(" *in, __global ").append(dst).append(" *out, int form, int count) {\n")
                .append("  size_t i = get_global_id(0);\n  switch (form) {\n");
        List<Form> forms = forms();
        for (int f = 0; f < forms.size(); f++) { // a scalar form's items past count are the work-group's padding
            String body = body(forms.get(f));
            s.append("  case ").append(f).append(": ").append(forms.get(f).width() == 1
                    ? "if (i < (size_t)count) { " + body + " }" : body).append(" break;\n");
        }
        return s.append("  }\n}\n").toString();
    }

    private String body(Form form) {
        String compared = src.equals("double") ? "x" : "(float)x";
        String inRange = compared + " >= " + literal(low()) + " && " + compared + " <= " + literal(high());
        String saturated = "convert_" + dst + "_sat" + modifier + "(x)";
        if (form.spelling().equals(IN_RANGE)) {
            return "{ " + src + " x = in[i]; out[i] = (" + inRange + ") ? convert_" + dst + modifier + "(x) : " + saturated
                    + "; }";
        }
        if (form.spelling().equals(IMPLICIT)) {
            return sat ? "{ " + src + " x = in[i]; if (" + inRange + ") out[i] = x; else out[i] = " + saturated + "; }"
                    : "out[i] = in[i];";
        }
        String scalar = form.spelling().formatted("");
        if (form.width() == 1) {
            return "out[i] = " + scalar + "(in[i]);";
        }
        int w = form.width();
        return "if ((i + 1) * " + w + " <= (size_t)count) vstore" + w + "(" + form.spelling().formatted(String.valueOf(w))
                + "(vload" + w + "(i, in)), i, out); else for (size_t j = i * " + w + "; j < (size_t)count; j++) out[j] = "
                + scalar + "(in[j]);";
    }

    private BigInteger low() {
        return dstSigned ? BigInteger.ONE.shiftLeft(dstBits - 1).negate() : BigInteger.ZERO;
    }

    private BigInteger high() {
        return BigInteger.ONE.shiftLeft(dstSigned ? dstBits - 1 : dstBits).subtract(BigInteger.ONE);
    }

    /**
     * The bound as a literal of the comparison's type (double for a double source, else float), rounded
     * toward zero: every value between the two bounds rounds, in any mode, to an integer in range.
     */
    private String literal(BigInteger bound) {
        BigDecimal exact = new BigDecimal(bound);
        if (src.equals("double")) {
            double d = bound.doubleValue();
            if (new BigDecimal(d).abs().compareTo(exact.abs()) > 0) {
                d = d > 0 ? Math.nextDown(d) : Math.nextUp(d);
            }
            return Double.toHexString(d);
        }
        float f = bound.floatValue();
        if (new BigDecimal(f).abs().compareTo(exact.abs()) > 0) {
            f = f > 0 ? Math.nextDown(f) : Math.nextUp(f);
        }
        return Float.toHexString(f) + "f";
    }
}
