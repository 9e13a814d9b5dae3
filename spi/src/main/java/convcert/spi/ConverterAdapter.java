package convcert.spi;

import java.util.List;

/**
 * An implementation under test. The suite hands it batches of one case at a time: inputs as bit
 * patterns (one long per element, low bits significant), and an output array of the same length to
 * fill with the destination's bit patterns. Implementations need not be thread-safe; the suite calls
 * one adapter from one thread.
 */
public interface ConverterAdapter extends AutoCloseable {

    /** What it implements; cases matching none are not applicable. */
    List<Capability> capabilities();

    /** Converts inputs[0..count) of the case into outputs[0..count). */
    void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException;

    /** Whether the adapter checks OpenCL-style alignment (negative vectors apply only then). */
    default boolean checksAlignment() {
        return false;
    }

    /**
     * Whether the implementation selects saturation itself from each case's form and CTRL bits (a
     * device that programs its CTRL register): it is then certified on every variant of a state.
     * Adapters told the effective state (or replaying one recording per state) answer false and run
     * each state's primary variant only.
     */
    default boolean programsSaturation() {
        return true;
    }

    /**
     * What exactly is under test, for the report's provenance: e.g. the command and the SHA-256 of
     * its executable, a library's digest, a device's name and driver version.
     */
    default String identity() {
        return getClass().getName();
    }

    /** Called after a batch failed: an adapter with a process or device may restart it. */
    default void recover() throws AdapterException {
    }

    @Override
    default void close() {
    }
}
