package convcert.spec;

import convcert.common.WorkingDirectory;
import java.nio.file.Path;

/** A place in a spec table: file, 1-based line and 1-based column (0 when the whole line is meant). */
public record Location(Path file, long line, int column) {

    public Location atColumn(int newColumn) {
        return new Location(file, line, newColumn);
    }

    /** "spec-tables/ascend-c/formats.csv:3:2", the path as the user would type it from here. */
    @Override
    public String toString() {
        String name = WorkingDirectory.relative(file).toString();
        return line == 0 ? name : column > 0 ? name + ":" + line + ":" + column : name + ":" + line; // 0: the whole file
    }
}
