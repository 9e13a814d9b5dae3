package convcert.spec;

/** A spec table that cannot be used: the message names the file, line and column. */
public final class TableException extends RuntimeException {

    private final transient Location location;

    public TableException(Location location, String message) {
        super(location + ": " + message);
        this.location = location;
    }

    public Location location() {
        return location;
    }
}
