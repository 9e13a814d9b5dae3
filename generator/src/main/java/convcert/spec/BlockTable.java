package convcert.spec;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * blocks.csv: the block formats of a profile (optional; OCP MX has them, CUDA its packed fp4x2 and
 * NVFP4). Elements must be floating formats, the scale (if any) an exponent-only format (E8M0) or, under
 * a per-tensor scale (the optional tensor_scale column), a floating format (NVFP4's E4M3); value an IEEE
 * format wider than the element; names must not clash with formats.csv.
 */
final class BlockTable {

    static final List<String> COLUMNS = List.of("name", "aliases", "element", "scale", "size", "value", "modes",
            "storage", "description", "source");

    /** Optional: the format of the tensor's largest magnitude, which a two-level recipe scales from. */
    static final String TENSOR_SCALE = "tensor_scale";

    /** Optional: under rs, the unsigned integer format of each element's random bits (its width is their count). */
    static final String RANDOM = "random";

    private BlockTable() {
    }

    static Map<String, BlockFormat> load(CsvTable table, Function<String, Format> formats, Set<Rounding> modesDefined) {
        Map<String, BlockFormat> blocks = new LinkedHashMap<>();
        for (CsvTable.Row row : table.rows()) {
            String name = row.required("name");
            checkNames(row, name, formats);
            Format element = format(row, "element", formats);
            if (element.isInteger() || element.layout() == Layout.EXPONENT || element.layout() == Layout.TAPERED) {
                throw row.error("element", element.name() + " is not an IEEE-like floating format");
            }
            Format scale = row.text("scale").isEmpty() ? null : format(row, "scale", formats);
            boolean twoLevel = table.columnNames().contains(TENSOR_SCALE) && !row.text(TENSOR_SCALE).isEmpty();
            Format tensor = twoLevel ? format(row, TENSOR_SCALE, formats) : null;
            if (scale != null && !twoLevel && scale.layout() != Layout.EXPONENT) {
                throw row.error("scale", scale.name() + " is not an exponent-only format (layout exponent); a floating "
                        + "block scale needs a per-tensor scale above it (tensor_scale)");
            }
            Format value = format(row, "value", formats);
            if (value.layout() != Layout.IEEE || value.exponentBits() <= element.exponentBits()
                    || value.mantissaBits() < element.mantissaBits()) {
                throw row.error("value", value.name() + " must be an IEEE format (with infinity and NaN) wider than "
                        + element.name() + " in exponent and mantissa");
            }
            if (twoLevel) {
                checkTwoLevel(row, scale, tensor, value);
            }
            int size = row.integer("size");
            if (size < 1 || size > 1024) {
                throw row.error("size", "a block holds 1 to 1024 elements, not " + size);
            }
            Set<Rounding> modes = modes(row, modesDefined);
            if (!modesDefined.contains(Rounding.RN)) {
                throw row.error("modes", "block -> " + value.name() + " rounds rn (overflow only): rounding.csv needs rn");
            }
            Format random = random(table, row, formats, modes);
            boolean packed = packed(row, element);
            BlockFormat b = new BlockFormat(name, row.words("aliases"), element, scale, tensor, size, value, Set.copyOf(modes),
                    packed, random, row.required("description"), row.required("source"), row.location());
            if (blocks.putIfAbsent(name, b) != null) {
                throw row.error("name", "duplicate block format '" + name + "'");
            }
        }
        return blocks;
    }

    private static void checkNames(CsvTable.Row row, String name, Function<String, Format> formats) {
        for (String column : List.of("name", "aliases")) {
            for (String word : column.equals("name") ? List.of(name) : row.words(column)) {
                row.identifier(column, word);
                if (formats.apply(word) != null) {
                    throw row.error(column, "'" + word + "' is already a name of format "
                            + formats.apply(word).name() + " (formats.csv)");
                }
            }
        }
    }

    /** A two-level block: a floating block scale under a binary32 tensor scale, over binary32 values. */
    private static void checkTwoLevel(CsvTable.Row row, Format scale, Format tensor, Format value) {
        if (scale == null || scale.isInteger() || scale.layout() == Layout.EXPONENT || scale.layout() == Layout.TAPERED
                || scale.layout() == Layout.FIXED) {
            throw row.error("scale", "a two-level block (tensor_scale " + tensor.name() + ") needs a floating block "
                    + "scale such as E4M3, not " + (scale == null ? "none" : scale.name()));
        }
        if (!tensor.equals(value) || value.width() != 32 || value.exponentBits() != 8 || value.mantissaBits() != 23) {
            throw row.error(TENSOR_SCALE, "a two-level recipe computes in binary32: tensor_scale and value must both "
                    + "be the binary32 format, not " + tensor.name() + " and " + value.name());
        }
    }

    private static Set<Rounding> modes(CsvTable.Row row, Set<Rounding> modesDefined) {
        Set<Rounding> modes = EnumSet.noneOf(Rounding.class);
        for (String word : row.words("modes")) {
            Rounding mode = Rounding.parse(word);
            if (mode == null || mode == Rounding.RH || mode == Rounding.RO) {
                throw row.error("modes", "'" + word + "' is not a rounding mode for block elements (rn rna rz rd ru rs)");
            }
            if (!modesDefined.contains(mode)) {
                throw row.error("modes", mode.suffix() + " has no row in rounding.csv");
            }
            modes.add(mode);
        }
        if (modes.isEmpty()) {
            throw row.error("modes", "at least one rounding mode required");
        }
        return modes;
    }

    /** The storage column: bytes, or packed (two elements of up to 4 bits a byte). */
    private static boolean packed(CsvTable.Row row, Format element) {
        String storage = row.required("storage");
        if (!storage.equals("bytes") && !storage.equals("packed")) {
            throw row.error("storage", "expected bytes (a value per byte or more) or packed (two elements of up to 4 bits "
                    + "per byte), got '" + storage + "'");
        }
        if (storage.equals("packed") && element.width() > 4) {
            throw row.error("storage", "only elements of up to 4 bits pack two per byte; " + element.name() + " has "
                    + element.width());
        }
        return storage.equals("packed");
    }

    /** The random column: required where a mode is stochastic, an unsigned integer of 1 to 32 bits; refused elsewhere. */
    private static Format random(CsvTable table, CsvTable.Row row, Function<String, Format> formats, Set<Rounding> modes) {
        boolean stochastic = modes.stream().anyMatch(Rounding::stochastic);
        boolean given = table.columnNames().contains(RANDOM) && !row.text(RANDOM).isEmpty();
        if (!stochastic) {
            if (given) {
                throw row.error(RANDOM, "random bits without rs (stochastic rounding) in modes");
            }
            return null;
        }
        if (!given) {
            throw row.error("modes", "rs (stochastic rounding) needs the format of each element's random bits in a random column");
        }
        Format f = format(row, RANDOM, formats);
        if (f.layout() != Layout.UINT || f.width() > 32) {
            throw row.error(RANDOM, "random bits are an unsigned integer format of up to 32 bits, not " + f.name());
        }
        return f;
    }

    private static Format format(CsvTable.Row row, String column, Function<String, Format> formats) {
        String name = row.required(column);
        Format f = formats.apply(name);
        if (f == null) {
            throw row.error(column, "unknown format '" + name + "' (formats.csv)");
        }
        return f;
    }
}
