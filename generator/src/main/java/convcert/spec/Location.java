package convcert.spec;

import java.nio.file.Path;

/** A place in a spec table: file, 1-based line and 1-based column (0 when the whole line is meant). */
public record Location(Path file, long line, int column) {

    public Location atColumn(int newColumn) {
        return new Location(file, line, newColumn);
    }

    @Override
    public String toString() {
        String name = file.getFileName() == null ? file.toString() : file.getParent() == null
                ? file.toString() : file.getParent().getFileName() + "/" + file.getFileName();
        return column > 0 ? name + ":" + line + ":" + column : name + ":" + line;
    }
}
