package convcert.spi;

/**
 * Scaled conversions (e.g. Arm FEAT_FP8's FPMR.NSCALE and LSCALE): each value comes with its scale, in
 * the low bits of scales[i] as the pair's scale column of spec-tables/PROFILE/conversions.csv lays it
 * out ("s8": 8 bits read as a signed k, the value converting as value x 2^k; "-u4": 4 bits read as an
 * unsigned k, value x 2^-k), applied exactly before the one rounding. An adapter whose implementation
 * takes scales implements this beside ConverterAdapter and the suite calls it for scaled cases; an
 * adapter without it does not run them (they are not applicable to it), so old adapters keep working.
 */
public interface ScaleOperations {

    /** Whether this instance takes scales (a process device says SCALE in its handshake); true unless overridden. */
    default boolean takesScales() {
        return true;
    }

    /** Converts inputs[i] scaled by scales[i] into outputs[i], for i in [0, count). */
    void convertScaled(CaseKey c, long[] inputs, long[] scales, long[] outputs, int count) throws AdapterException;
}
