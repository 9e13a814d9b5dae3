package convcert.vectors;

import convcert.spec.CsvTable;
import convcert.spec.Location;
import convcert.spec.TableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of coverage.csv: a kind of coverage point, where it applies, and its size per level
 * (the meaning of the number is in 'parameter'). Row order is priority: an input that several tags
 * produce carries the first one.
 */
public record CoverageTag(String tag, String appliesTo, String parameter, int quick, int ci, int full,
                          String description) {

    public int at(Level level) {
        return switch (level) {
            case QUICK -> quick;
            case CI -> ci;
            case FULL -> full;
        };
    }

    private static final List<String> COLUMNS = List.of("tag", "applies_to", "parameter", "quick", "ci", "full",
            "description");

    /** The coverage model shipped with the generator (generator/COVERAGE.md explains it). */
    public static List<CoverageTag> builtIn() {
        try (InputStream in = CoverageTag.class.getResourceAsStream("coverage.csv");
             Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return read(CsvTable.read(Path.of("generator/src/main/resources/convcert/vectors/coverage.csv"), reader,
                    COLUMNS), Path.of("coverage.csv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<CoverageTag> read(Path file) {
        return read(CsvTable.read(file, COLUMNS), file);
    }

    private static List<CoverageTag> read(CsvTable table, Path file) {
        List<CoverageTag> tags = new ArrayList<>();
        for (CsvTable.Row row : table.rows()) {
            String tag = row.required("tag");
            if (!CoverageModel.KNOWN_TAGS.contains(tag)) {
                throw row.error("tag", "unknown coverage tag '" + tag + "'; the generator implements "
                        + CoverageModel.KNOWN_TAGS);
            }
            tags.add(new CoverageTag(tag, row.required("applies_to"), row.required("parameter"), row.integer("quick"),
                    row.integer("ci"), row.integer("full"), row.required("description")));
        }
        if (tags.stream().map(CoverageTag::tag).distinct().count() != tags.size()) {
            throw new TableException(new Location(file, 0, 0), "duplicate coverage tag");
        }
        return tags;
    }
}
