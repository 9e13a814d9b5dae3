package convcert.spec;

import java.util.List;
import java.util.Locale;

/**
 * One row of formats.csv. Floating formats carry their field widths and special encodings;
 * integer formats only their width and signedness (the layout).
 *
 * @param inf     the +infinity encoding, or null when the format has none
 * @param nan     the canonical (positive, quiet) NaN encoding, or null for integers
 * @param satNan  what a NaN input gives under saturation: "zero", "nan", or "ctrlNN" (CTRL[NN] decides: 1 keeps NaN)
 * @param fromNan integer formats: the bits a NaN converts to; null for floating formats
 */
public record Format(String name, List<String> aliases, int width, Layout layout,
                     int exponentBits, int mantissaBits, int bias,
                     Long inf, Long nan, long maxFinite, boolean negativeZero, String satNan, Long fromNan,
                     String description, Location location) {

    /** The CTRL bit that sat_nan=ctrlNN names, or null. */
    public Integer satNanBit() {
        return satNan != null && satNan.matches("ctrl\\d+") ? Integer.valueOf(satNan.substring(4)) : null;
    }

    public boolean isInteger() {
        return layout.isInteger();
    }

    public boolean isSigned() {
        return layout.hasSignBit();
    }

    /** All bits of the format set: the mask of a value of this width. */
    public long mask() {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    /** Bytes one element takes in .bin files, the process protocol and native buffers: narrow elements take one. */
    public int bytes() {
        return VectorBytes.of(width);
    }

    /** Whether the format has a NaN encoding (finite-only formats such as OCP FP4/FP6 have none). */
    public boolean hasNan() {
        return nan != null;
    }

    public int hexDigits() {
        return (width + 3) / 4;
    }

    /** The bit pattern as 0x-hex with the format's width. */
    public String hex(long bits) {
        String digits = Long.toHexString(bits & mask()).toUpperCase(Locale.ROOT);
        return "0x" + "0".repeat(Math.max(0, hexDigits() - digits.length())) + digits;
    }
}
