package convcert.reference;

/**
 * Whether bits are a NaN of a format: what nan-comparison=any treats as one result. The suite's Comparison,
 * the exhaustive chunk digests and the block coverage's recipe comparison all ask here.
 */
public final class NaNs {

    private NaNs() {
    }

    /** A NaN of the codec's format: not an integer format, no bits beyond its width, and decoded as NaN. */
    public static boolean isNaN(FormatCodec codec, long bits) {
        return !codec.isInteger() && (bits & ~codec.format().mask()) == 0 && codec.decode(bits).kind() == Decoded.Kind.NAN;
    }
}
