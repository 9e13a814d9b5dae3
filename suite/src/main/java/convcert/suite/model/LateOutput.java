package convcert.suite.model;

import convcert.spi.AdapterException;

/**
 * Output an implementation sent after it had answered a case (its answer and the batch of 0 after it),
 * found before the next case sent anything: the failure of the case it followed, named here, not of the
 * case that found it, which runs on a restarted implementation.
 */
public final class LateOutput extends AdapterException {

    private final String caseName;

    public LateOutput(String caseName, String message) {
        super(message);
        this.caseName = caseName;
    }

    /** The case whose answers the output followed. */
    public String caseName() {
        return caseName;
    }
}
