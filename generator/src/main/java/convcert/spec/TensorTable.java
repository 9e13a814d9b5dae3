package convcert.spec;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * tensors.csv (optional): whole tensors quantized into a block format of blocks.csv, one shape and scale
 * layout per row (TensorShape), with an optional rotation column (Rotation). Each row becomes a block format of its own, whose one "block"
 * is the whole tensor, so that tensor cases travel every path block cases do.
 */
final class TensorTable {

    static final List<String> COLUMNS = List.of("name", "aliases", "block", "rows", "columns", "along", "layout",
            "storage", "description", "source");

    /** The largest tensor a row may hold: a case's vectors stay a few megabytes. */
    static final int LARGEST = 1 << 16;

    private TensorTable() {
    }

    /** blocks with the tensors of table added. */
    static Map<String, BlockFormat> load(CsvTable table, Map<String, BlockFormat> blocks, Function<String, Format> formats) {
        Map<String, BlockFormat> all = new LinkedHashMap<>(blocks);
        for (CsvTable.Row row : table.rows()) {
            String name = row.required("name");
            for (String column : List.of("name", "aliases")) {
                for (String word : column.equals("name") ? List.of(name) : row.words(column)) {
                    row.identifier(column, word);
                    if (formats.apply(word) != null || all.containsKey(word)) {
                        throw row.error(column, "'" + word + "' is already the name of a format or block format");
                    }
                }
            }
            BlockFormat block = blocks.get(row.required("block"));
            if (block == null) {
                throw row.error("block", "unknown block format '" + row.text("block") + "' (blocks.csv)");
            }
            if (!block.scaled()) {
                throw row.error("block", block.name() + " has no scale: a tensor of it is its values, each on its own");
            }
            int rows = row.integer("rows");
            int columns = row.integer("columns");
            if (rows < 1 || columns < 1 || (long) rows * columns > LARGEST) {
                throw row.error(rows < 1 ? "rows" : "columns", "a tensor holds 1 to " + LARGEST + " values, not "
                        + rows + " x " + columns);
            }
            boolean packed = switch (row.required("storage")) {
                case "bytes" -> false;
                case "packed" -> true;
                default -> throw row.error("storage", "expected bytes or packed, got '" + row.text("storage") + "'");
            };
            if (packed && block.element().width() > 4) {
                throw row.error("storage", "only elements of up to 4 bits pack two per byte; " + block.element().name()
                        + " has " + block.element().width());
            }
            if (packed && columns % 2 != 0) {
                throw row.error("columns", "packed elements fill whole bytes along each row: columns must be even");
            }
            TensorShape.Along along = switch (row.required("along")) {
                case "row" -> TensorShape.Along.ROW;
                case "column" -> TensorShape.Along.COLUMN;
                default -> throw row.error("along", "expected row or column, got '" + row.text("along") + "'");
            };
            TensorShape.ScaleLayout layout = TensorShape.ScaleLayout.parse(row.required("layout"));
            if (layout == null) {
                throw row.error("layout", "expected one of " + Arrays.stream(TensorShape.ScaleLayout.values())
                        .map(TensorShape.ScaleLayout::word).collect(Collectors.joining(" ")) + ", got '" + row.text("layout") + "'");
            }
            TensorShape shape = new TensorShape(block, rows, columns, along, layout, rotation(table, row, block,
                    along == TensorShape.Along.ROW ? columns : rows));
            all.put(name, new BlockFormat(name, row.words("aliases"), block.element(), block.scale(), block.tensorScale(), block.size(),
                    block.value(), block.modes(), packed, block.random(), row.required("description"), row.required("source"),
                    row.location(), shape));
        }
        return all;
    }

    /** The optional rotation column: blank (or absent) for none; a rotation needs whole blocks along its axis. */
    private static Rotation rotation(CsvTable table, CsvTable.Row row, BlockFormat block, int axis) {
        if (!table.columnNames().contains("rotation") || row.text("rotation").isEmpty()) {
            return null;
        }
        String[] why = new String[1];
        Rotation r = Rotation.parse(row.text("rotation"), block.size(), why);
        if (r == null) {
            throw row.error("rotation", why[0]);
        }
        if (axis % block.size() != 0) {
            throw row.error("rotation", "a rotation takes whole blocks: " + axis + " values along the block's axis is not a multiple of "
                    + block.size());
        }
        return r;
    }
}
