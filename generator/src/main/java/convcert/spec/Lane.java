package convcert.spec;

/**
 * What a case carries beside each value, one operand with it: stochastic rounding's random bits or a scale.
 * The word names the lane's files (.random.bin, .scale.memh), its CSV column and the process protocol's
 * lane field.
 */
public enum Lane {
    RANDOM("random"), SCALE("scale"), SCALE_RANDOM("scale-random");

    private final String word;

    Lane(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    @Override
    public String toString() {
        return word;
    }
}
