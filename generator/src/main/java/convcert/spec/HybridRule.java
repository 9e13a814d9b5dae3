package convcert.spec;

/**
 * One row of hybrid-rounding.csv: how CAST_HYBRID takes its comparison from an input format.
 * The top compareBits discarded bits are compared with a threshold drawn from the input bits:
 * "low-bits" is the input's low compareBits bits; "lsb-then-one" is the input's last bit followed
 * by a 1 (compareBits must be 2).
 */
public record HybridRule(String source, int compareBits, String threshold, Location location) {

    public long threshold(long inputBits) {
        return switch (threshold) {
            case "low-bits" -> inputBits & ((1L << compareBits) - 1);
            case "lsb-then-one" -> ((inputBits & 1) << 1) | 1;
            default -> throw new IllegalStateException(threshold);
        };
    }
}
