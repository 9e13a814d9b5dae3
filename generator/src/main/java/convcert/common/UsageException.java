package convcert.common;

/** A request the tables do not allow (unknown type, mode not offered, bad CTRL setting). */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
