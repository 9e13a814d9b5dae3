package convcert.spec;

/**
 * A rotation a quantizer applies to a tensor's values before it finds their scales (tensors.csv's optional
 * rotation column): the randomized Hadamard transform of NVFP4 training, each block's values x taken to
 * y = x D H / sqrt(size), H the Sylvester Hadamard matrix of the block's size and D the diagonal of fixed
 * signs, as TransformerEngine's NVFP4 recipe rotates the columnwise copy of its inputs and gradients. Written
 * "hadamard-16:+++-+------+-+--", one sign per row of H, the first first; negative holds bit k for a '-'.
 */
public record Rotation(int size, long negative) {

    private static final String PREFIX = "hadamard-";

    /** The word tensors.csv and the process protocol's TENSORS line use. */
    public String word() {
        StringBuilder b = new StringBuilder(PREFIX).append(size).append(':');
        for (int k = 0; k < size; k++) {
            b.append((negative >>> k & 1) == 0 ? '+' : '-');
        }
        return b.toString();
    }

    /** Sign k of D: -1 or +1. */
    public int sign(int k) {
        return (negative >>> k & 1) == 0 ? 1 : -1;
    }

    /**
     * The rotation a word names, for a block of blockSize values; null with the reason in why[0] where it
     * names none (the size must be the block's, 4, 16 or 64, and one sign given per row).
     */
    static Rotation parse(String word, int blockSize, String[] why) {
        int colon = word.indexOf(':');
        if (!word.startsWith(PREFIX) || colon < 0) {
            why[0] = "expected hadamard-SIZE:SIGNS (one + or - per row, e.g. hadamard-16:+++-+------+-+--), got '" + word + "'";
            return null;
        }
        String signs = word.substring(colon + 1);
        int size;
        try {
            size = Integer.parseInt(word.substring(PREFIX.length(), colon));
        } catch (NumberFormatException e) {
            size = -1;
        }
        if (size != blockSize || !(size == 4 || size == 16 || size == 64)) {
            why[0] = "a rotation spans one block of 4, 16 or 64 values (1 / sqrt(size) a power of two, so the normalization"
                    + " is exact): hadamard-" + blockSize + " for blocks of " + blockSize + ", got '" + word + "'";
            return null;
        }
        if (signs.length() != size || !signs.matches("[+-]*")) {
            why[0] = "expected " + size + " signs, each + or -, after the colon, got '" + signs + "'";
            return null;
        }
        long negative = 0;
        for (int k = 0; k < size; k++) {
            negative |= signs.charAt(k) == '-' ? 1L << k : 0;
        }
        return new Rotation(size, negative);
    }
}
