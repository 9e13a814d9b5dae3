package convcert.spec;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * One spec table: RFC 4180 CSV with a header row. Rows keep their line number so that every
 * complaint about a value can name file:line:column.
 */
public final class CsvTable {

    private final Path file;
    private final Map<String, Integer> columns;
    private final List<Row> rows;

    private CsvTable(Path file, Map<String, Integer> columns, List<Row> rows) {
        this.file = file;
        this.columns = columns;
        this.rows = rows;
    }

    public static CsvTable read(Path file, List<String> requiredColumns) {
        if (!Files.isRegularFile(file)) {
            throw new TableException(new Location(file, 0, 0), "missing table");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new TableException(new Location(file, 0, 0), "unreadable: " + e.getMessage());
        }
        String text = utf8(file, bytes);
        controlCharacters(file, text);
        return read(file, new StringReader(text), requiredColumns);
    }

    /** A table holds text: a NUL or other control character (tab and line ends aside) is named where it is. */
    private static void controlCharacters(Path file, String text) {
        long line = 1;
        int column = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                column = 1;
                continue;
            }
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
                throw new TableException(new Location(file, line, column), String.format(
                        "control character U+%04X in the table; a table holds text", (int) c));
            }
            column++;
        }
    }

    /** Strict UTF-8 (a spreadsheet's byte order mark dropped); an invalid byte is named by line and column. */
    private static String utf8(Path file, byte[] bytes) {
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            int at = in.position();
            long line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new TableException(new Location(file, line, at - lineStart + 1), String.format(
                    "not UTF-8 text: byte 0x%02X; save the table as UTF-8", bytes[at] & 0xFF));
        }
        decoder.flush(out);
        out.flip();
        String text = out.toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** A table with no rows, for an optional table a profile leaves out. */
    public static CsvTable empty(Path file) {
        return new CsvTable(file, Map.of(), new ArrayList<>());
    }

    /** Parses CSV from a reader; 'file' names it in messages. */
    public static CsvTable read(Path file, Reader reader, List<String> requiredColumns) {
        CSVFormat format = CSVFormat.RFC4180.builder().setIgnoreSurroundingSpaces(false).get();
        try (CSVParser parser = CSVParser.builder().setReader(reader).setFormat(format).get()) {
            List<CSVRecord> records = parser.getRecords();
            if (records.isEmpty()) {
                throw new TableException(new Location(file, 1, 0), "empty table: a header row is required");
            }
            CSVRecord header = records.getFirst();
            Map<String, Integer> columns = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                String name = header.get(i).strip();
                if (columns.putIfAbsent(name, i) != null) {
                    throw new TableException(new Location(file, 1, i + 1), "duplicate column '" + name + "'");
                }
            }
            for (String required : requiredColumns) {
                if (!columns.containsKey(required)) {
                    throw new TableException(new Location(file, 1, 0),
                            "missing column '" + required + "' (columns are " + requiredColumns + ")");
                }
            }
            List<Row> rows = new ArrayList<>();
            CsvTable table = new CsvTable(file, columns, rows);
            long line = 2;
            for (CSVRecord record : records.subList(1, records.size())) {
                if (record.size() == 1 && record.get(0).isBlank()) {
                    line++;
                    continue;
                }
                if (record.size() != header.size()) {
                    throw new TableException(new Location(file, line, 0),
                            "row has " + record.size() + " fields, the header has " + header.size());
                }
                List<String> values = new ArrayList<>(record.size());
                record.forEach(values::add);
                rows.add(table.new Row(line, values));
                // A quoted field may span lines; count the newlines it holds.
                line += 1 + values.stream().mapToLong(v -> v.chars().filter(c -> c == '\n').count()).sum();
            }
            return table;
        } catch (IOException | IllegalStateException | UncheckedIOException e) {
            // Commons CSV names the line where a quoted field started ("(startline 5) EOF reached ...").
            String message = String.valueOf(e.getMessage());
            Matcher m = Pattern.compile("(?:startline|line) (\\d+)").matcher(message);
            long line = m.find() ? Long.parseLong(m.group(1)) : 0;
            String what = message.contains("EOF reached before encapsulated token finished")
                    ? "a quoted field is not closed (a '\"' is missing)" : message.replaceFirst("^\\(?[^)]*\\)\\s*", "");
            throw new TableException(new Location(file, line, 0), "not valid CSV: " + what);
        }
    }

    public Path file() {
        return file;
    }

    /** The header's column names, in file order. */
    public List<String> columnNames() {
        return columns.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList();
    }

    public List<Row> rows() {
        return rows;
    }

    /** One data row; getters validate and name the cell on error. */
    public final class Row {
        private final long line;
        private final List<String> values;

        Row(long line, List<String> values) {
            this.line = line;
            this.values = values;
        }

        public Location location() {
            return new Location(file, line, 0);
        }

        public Location location(String column) {
            return new Location(file, line, columns.get(column) + 1);
        }

        public TableException error(String column, String message) {
            return new TableException(location(column), column + ": " + message);
        }

        /** The cell, stripped; empty when blank. */
        public String text(String column) {
            Integer index = columns.get(column);
            if (index == null) {
                throw new IllegalArgumentException("no column " + column + " in " + file);
            }
            return values.get(index).strip();
        }

        public String required(String column) {
            String value = text(column);
            if (value.isEmpty()) {
                throw error(column, "value required");
            }
            return value;
        }

        public int integer(String column) {
            String value = required(column);
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw error(column, "not an integer: '" + value + "'");
            }
        }

        /** A 0x-prefixed hexadecimal bit pattern; null when blank. */
        public Long optionalHex(String column) {
            String value = text(column);
            if (value.isEmpty()) {
                return null;
            }
            return hex(column);
        }

        public long hex(String column) {
            String value = required(column);
            if (!value.startsWith("0x") || value.length() < 3 || value.length() > 18) {
                throw error(column, "bad hex '" + value + "': expected 0x followed by 1 to 16 hex digits");
            }
            try {
                return Long.parseUnsignedLong(value.substring(2), 16);
            } catch (NumberFormatException e) {
                throw error(column, "bad hex '" + value + "'");
            }
        }

        public boolean yesNo(String column) {
            return switch (required(column)) {
                case "yes" -> true;
                case "no" -> false;
                default -> throw error(column, "expected yes or no, got '" + text(column) + "'");
            };
        }

        /**
         * A name of a format, block format or family, as file and folder names carry it (vectors/PROFILE/FROM-TO/):
         * refused at its cell when it holds a path separator, ".." or more than 64 characters (a control
         * character is refused in any cell, when the table is read).
         */
        public String identifier(String column, String name) {
            String why = name.length() > 64 ? "more than 64 characters"
                    : name.contains("/") || name.contains("\\") ? "a path separator"
                    : name.contains("..") ? "'..'" : null;
            if (why != null) {
                throw error(column, "'" + name + "' has " + why + ": a name is an identifier, also used in file names");
            }
            return name;
        }

        /** Space-separated words; empty list when blank. */
        public List<String> words(String column) {
            String value = text(column);
            return value.isEmpty() ? List.of() : List.of(value.split("\\s+"));
        }
    }
}
