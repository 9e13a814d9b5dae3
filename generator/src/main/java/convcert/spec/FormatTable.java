package convcert.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** formats.csv: the number formats, by name and by any of their names (aliases are for users, not tables). */
final class FormatTable {

    final Map<String, Format> byName = new LinkedHashMap<>();
    final Map<String, Format> byAnyName = new LinkedHashMap<>();

    FormatTable(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            String name = row.required("name");
            Layout layout = Layout.parse(row.required("layout"));
            if (layout == null) {
                throw row.error("layout", "unknown layout '" + row.text("layout")
                        + "' (known: ieee ieee-fn ieee-fnu p3109-signed p3109-unsigned exponent tapered fixed int uint)");
            }
            int width = row.integer("width");
            if (width < 4 || width > 64 || (width > 8 && width != 16 && width != 32 && width != 64)) {
                throw row.error("width", "width must be 4 to 8, 16, 32 or 64, got " + width
                        + " (elements of up to 8 bits are stored one per byte)");
            }
            Format format;
            if (layout == Layout.FIXED) {
                format = fixed(row, name, width);
            } else if (layout.isInteger()) {
                format = integer(row, name, width, layout);
            } else {
                format = floating(row, name, width, layout);
            }
            add(row, format);
        }
    }

    /** An integer format: no floating columns; its largest value and the code a NaN converts to fit its width. */
    private static Format integer(CsvTable.Row row, String name, int width, Layout layout) {
        for (String column : List.of("exponent_bits", "mantissa_bits", "bias", "inf", "nan", "sat_nan")) {
            if (!row.text(column).isEmpty()) {
                throw row.error(column, "must be blank for an integer format");
            }
        }
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long expectedMax = layout == Layout.INT ? mask >>> 1 : mask;
        long max = row.hex("max_finite");
        if (max != expectedMax) {
            throw row.error("max_finite", "an " + width + "-bit " + layout.tableName()
                    + " has largest value 0x" + Long.toHexString(expectedMax).toUpperCase());
        }
        long fromNan = row.hex("from_nan");
        if ((fromNan & ~mask) != 0) {
            throw row.error("from_nan", "does not fit in " + width + " bits");
        }
        return new Format(name, row.words("aliases"), width, layout, 0, 0, 0, null, null, max,
                row.yesNo("negative_zero"), null, fromNan, row.text("description"), row.location());
    }

    /** A floating format: its fields, specials and saturation NaN, each checked against its layout. */
    private static Format floating(CsvTable.Row row, String name, int width, Layout layout) {
        Fields f = fields(row, layout, width);
        Long inf = row.optionalHex("inf");
        if (layout == Layout.IEEE && inf == null) {
            throw row.error("inf", "an ieee layout has an infinity");
        }
        if ((layout == Layout.IEEE_FN || layout == Layout.IEEE_FNU || layout == Layout.EXPONENT) && inf != null) {
            throw row.error("inf", "an " + layout.tableName() + " layout has no infinity; leave blank");
        }
        long mask = width == 64 ? -1L : (1L << width) - 1;
        Long nan = row.optionalHex("nan");
        if (nan == null && layout != Layout.IEEE_FN) { // P3109 formats all have their one NaN
            throw row.error("nan", "value required (only an ieee-fn layout may have no NaN: finite only)");
        }
        long max = row.hex("max_finite");
        for (String column : List.of("inf", "nan", "max_finite")) {
            Long value = row.optionalHex(column);
            if (value != null && (value & ~mask) != 0) {
                throw row.error(column, "does not fit in " + width + " bits");
            }
        }
        String satNan = nan == null ? row.text("sat_nan") : row.required("sat_nan");
        if (nan == null && !satNan.isEmpty()) {
            throw row.error("sat_nan", "must be blank for a format without NaN (decision finite-nan decides)");
        }
        if (nan != null && !satNan.equals("zero") && !satNan.matches("ctrl\\d+") && !satNan.equals("nan")) {
            throw row.error("sat_nan", "expected zero, nan or ctrlNN (a bit of ctrl.csv), got '" + satNan + "'");
        }
        if (!row.text("from_nan").isEmpty()) {
            throw row.error("from_nan", "must be blank for a floating format");
        }
        Format format = new Format(name, row.words("aliases"), width, layout, f.exponentBits(), f.mantissaBits(), f.bias(),
                inf, nan, max, row.yesNo("negative_zero"), satNan, null, row.text("description"), row.location());
        if (layout == Layout.IEEE || layout == Layout.IEEE_FN) {
            checkIeeeSpecials(row, format);
        }
        if (layout.p3109()) {
            checkP3109Specials(row, format);
        }
        if (layout == Layout.EXPONENT || layout == Layout.IEEE_FNU) {
            checkUnsignedSpecials(row, format, nan, max, mask);
        }
        return format;
    }

    private record Fields(int exponentBits, int mantissaBits, int bias) {
    }

    private static Fields fields(CsvTable.Row row, Layout layout, int width) {
        if (layout == Layout.TAPERED) {
            for (String column : List.of("exponent_bits", "mantissa_bits", "bias")) {
                if (!row.text(column).isEmpty()) {
                    throw row.error(column, "must be blank for a tapered format (see tapered.csv)");
                }
            }
            return new Fields(0, 0, 0);
        }
        int exponentBits = row.integer("exponent_bits");
        int mantissaBits = row.integer("mantissa_bits");
        int bias = row.integer("bias");
        int sign = layout.hasSignBit() ? 1 : 0;
        if (sign + exponentBits + mantissaBits != width) {
            throw row.error("mantissa_bits", (sign == 1 ? "1 + " : "") + "exponent_bits + mantissa_bits = "
                    + (sign + exponentBits + mantissaBits) + ", not the width " + width);
        }
        if (layout == Layout.EXPONENT && mantissaBits != 0) {
            throw row.error("mantissa_bits", "an exponent layout has no mantissa: 0");
        }
        return new Fields(exponentBits, mantissaBits, bias);
    }

    /** An exponent or FNU layout: no sign, NaN all ones, the largest value the code below. */
    private static void checkUnsignedSpecials(CsvTable.Row row, Format format, Long nan, long max, long mask) {
        if (nan == null || nan != mask || max != mask - 1) {
            throw row.error(nan == null || nan != mask ? "nan" : "max_finite", "an " + format.layout().tableName()
                    + " layout's NaN is all ones (" + format.hex(mask) + ") and its largest value the code below ("
                    + format.hex(mask - 1) + ")");
        }
        if (format.negativeZero()) {
            throw row.error("negative_zero", "an " + format.layout().tableName() + " layout has no sign: no");
        }
    }

    /** Adds a format of a formats.csv or families.csv row; its names must be new. */
    Format add(CsvTable.Row row, Format format) {
        String name = format.name();
        if (byName.containsKey(name)) {
            throw row.error("name", "duplicate format '" + name + "'");
        }
        byName.put(name, format);
        for (String any : Stream.concat(Stream.of(name), format.aliases().stream()).toList()) {
            row.identifier(any.equals(name) ? "name" : "aliases", any);
            Format previous = byAnyName.putIfAbsent(any, format);
            if (previous != null) {
                throw row.error(any.equals(name) ? "name" : "aliases",
                        "'" + any + "' already names " + previous.name());
            }
        }
        return format;
    }

    /** families.csv's families (empty without the table): a conversions.csv row may name one. */
    Map<String, List<Format>> families = Map.of();

    /** The formats a conversions.csv cell names: one format, or each of a family's. */
    List<Format> formatsOf(CsvTable.Row row, String column) {
        List<Format> family = families.get(row.required(column));
        return family != null ? family : List.of(format(row, column));
    }

    /** A fixed-point row: mantissa_bits fraction bits below the sign and integer bits; no exponent, infinity or NaN. */
    private static Format fixed(CsvTable.Row row, String name, int width) {
        for (String column : List.of("exponent_bits", "bias", "inf", "nan", "sat_nan", "from_nan")) {
            if (!row.text(column).isEmpty()) {
                throw row.error(column, "must be blank for a fixed-point format");
            }
        }
        int fraction = row.integer("mantissa_bits");
        if (fraction < 0 || fraction > width - 1) {
            throw row.error("mantissa_bits", "a " + width + "-bit fixed-point format has 0 to " + (width - 1)
                    + " fraction bits, not " + fraction);
        }
        long max = (1L << (width - 1)) - 1;
        if (row.hex("max_finite") != max) {
            throw row.error("max_finite", "a " + width + "-bit fixed-point format's largest code is 0x"
                    + Long.toHexString(max).toUpperCase());
        }
        if (row.yesNo("negative_zero")) {
            throw row.error("negative_zero", "two's complement has one zero: no");
        }
        return new Format(name, row.words("aliases"), width, Layout.FIXED, 0, fraction, 0, null, null, max, false, null,
                null, row.text("description"), row.location());
    }

    private static void checkIeeeSpecials(CsvTable.Row row, Format f) {
        long expAllOnes = ((1L << f.exponentBits()) - 1) << f.mantissaBits();
        long mantissaMask = (1L << f.mantissaBits()) - 1;
        if (f.layout() == Layout.IEEE) {
            if (f.inf() != expAllOnes) {
                throw row.error("inf", "an ieee +infinity is the all-ones exponent with a zero mantissa: "
                        + f.hex(expAllOnes));
            }
            if ((f.nan() & expAllOnes) != expAllOnes || (f.nan() & mantissaMask) == 0
                    || (f.nan() >>> (f.width() - 1)) != 0) {
                throw row.error("nan", "not a positive NaN of this layout");
            }
            if (f.maxFinite() != expAllOnes - 1) {
                throw row.error("max_finite", "the largest finite ieee value is " + f.hex(expAllOnes - 1));
            }
        } else if (f.nan() == null) { // finite only (OCP FP6, FP4): every code is a number
            if (f.maxFinite() != (expAllOnes | mantissaMask)) {
                throw row.error("max_finite", "the largest value of a finite-only ieee-fn layout is all ones below "
                        + "the sign: " + f.hex(expAllOnes | mantissaMask));
            }
        } else if (f.nan() == 1L << (f.width() - 1)) { // FNUZ: the NaN is the -0 code; every other code a number
            if (f.negativeZero()) {
                throw row.error("negative_zero", "an ieee-fn format whose NaN is the -0 code has no -0: no");
            }
            if (f.maxFinite() != (expAllOnes | mantissaMask)) {
                throw row.error("max_finite", "with the NaN at the -0 code the largest value is all ones below the "
                        + "sign: " + f.hex(expAllOnes | mantissaMask));
            }
        } else {
            if (f.nan() != (expAllOnes | mantissaMask)) {
                throw row.error("nan", "the ieee-fn NaN is all ones below the sign (" + f.hex(expAllOnes | mantissaMask)
                        + "), or the -0 code (" + f.hex(1L << (f.width() - 1)) + ": FNUZ)");
            }
            if (f.maxFinite() != (expAllOnes | mantissaMask) - 1) {
                throw row.error("max_finite", "the largest finite ieee-fn value is "
                        + f.hex((expAllOnes | mantissaMask) - 1));
            }
        }
    }

    /**
     * P3109's encodings (draft section 3): one zero, no -0; the NaN at the -0 code (signed) or all ones
     * (unsigned); infinities only in the extended domain, at the top codes; the largest finite value next.
     */
    private static void checkP3109Specials(CsvTable.Row row, Format f) {
        boolean signed = f.isSigned();
        long nan = signed ? 1L << (f.width() - 1) : f.mask();
        long top = signed ? nan - 1 : f.mask() - 1; // all ones below the sign; the code below the NaN
        if (f.nan() != nan) {
            throw row.error("nan", "a " + f.layout().tableName() + " NaN is " + f.hex(nan));
        }
        if (f.negativeZero()) {
            throw row.error("negative_zero", "a P3109 format has one zero: no");
        }
        if (f.inf() != null && f.inf() != top) {
            throw row.error("inf", "a " + f.layout().tableName() + " +infinity is " + f.hex(top) + " (extended domain)");
        }
        long max = f.inf() == null ? top : top - 1;
        if (f.maxFinite() != max) {
            throw row.error("max_finite", "the largest finite value is " + f.hex(max) + (f.inf() == null
                    ? " (finite domain)" : " (extended domain)"));
        }
    }

    /** The format a row names in column: a name of formats.csv (an alias or an unknown name is an error). */
    Format format(CsvTable.Row row, String column) {
        String name = row.required(column);
        Format f = byName.get(name);
        if (f == null) {
            Format alias = byAnyName.get(name);
            throw row.error(column, alias != null ? "write the format's name '" + alias.name() + "', not the alias '"
                    + name + "'" : "unknown type '" + name + "' (known: " + String.join(" ", byName.keySet())
                    + (families.isEmpty() ? "" : "; families: " + String.join(" ", families.keySet())) + ")");
        }
        return f;
    }
}
