package convcert.spi;

/**
 * Stochastic rounding with explicit random bits (rounding "rs", e.g. PTX cvt.rs): each value comes with
 * the random bits that decide its rounding, as many as the pair's random_bits column of
 * spec-tables/PROFILE/conversions.csv says, in the low bits of random[i]. An adapter whose implementation
 * takes them implements this beside ConverterAdapter and the suite calls it for rs cases; an adapter
 * without it does not run them (they are not applicable to it), so old adapters keep working.
 */
public interface RandomOperations {

    /** Whether this instance takes random bits (a process device says RANDOM in its handshake); true unless overridden. */
    default boolean takesRandomBits() {
        return true;
    }

    /** Converts inputs[i] with the random bits random[i] into outputs[i], for i in [0, count). */
    void convert(CaseKey c, long[] inputs, long[] random, long[] outputs, int count) throws AdapterException;
}
