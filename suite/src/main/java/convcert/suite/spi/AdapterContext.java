package convcert.suite.spi;

import convcert.reference.Reference;
import java.nio.file.Path;

/**
 * What an adapter may need from the suite: the repository root, the vectors folder, the batch
 * timeout, and the reference of the profile under certification (its tables give element widths).
 */
public record AdapterContext(Path home, Path vectors, long batchTimeoutMillis, Reference reference) {

    /** Element width in bits of a format, by name. */
    public int widthOf(String format) {
        return reference.tables().findFormat(format).width();
    }
}
