package convcert.spi;

/**
 * The implementation under test failed to answer: it crashed, hung past the batch timeout, returned
 * garbage or the wrong number of values, or could not start. The case fails with this message and the
 * run goes on.
 */
public class AdapterException extends Exception {

    public AdapterException(String message) {
        super(message);
    }

    public AdapterException(String message, Throwable cause) {
        super(message, cause);
    }
}
