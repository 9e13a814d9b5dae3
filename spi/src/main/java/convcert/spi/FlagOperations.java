package convcert.spi;

/**
 * Exception flags (spec-tables/PROFILE/flags.csv, e.g. RISC-V fflags): an adapter whose
 * implementation raises them implements this beside ConverterAdapter, and the suite then calls this
 * method instead of convert for the profiles that declare flags. flags[i] gets the flags converting
 * inputs[i] raised on its own (as if the flags were cleared before each element), in Berkeley
 * SoftFloat's bits: 0x01 inexact, 0x02 underflow, 0x04 overflow, 0x08 infinite (division by zero),
 * 0x10 invalid. Adapters without it keep working: their results are certified, their flags are not.
 */
public interface FlagOperations {

    /** Whether this instance reports flags (a process device says so in its handshake); true unless overridden. */
    default boolean reportsFlags() {
        return true;
    }

    /** Converts inputs[0..count) of the case into outputs[0..count), each element's flags into flags[0..count). */
    void convert(CaseKey c, long[] inputs, long[] outputs, byte[] flags, int count) throws AdapterException;
}
