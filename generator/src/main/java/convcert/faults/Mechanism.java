package convcert.faults;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a fault of faults.csv changes the reference (its mechanism column): the rounding of ties or of every
 * value, the input, an intermediate format, a decision, the output, saturation, a scale, the CTRL bits,
 * the exception flags, or a quantizer's steps (block and tensor cases only: BlockFaults).
 */
public enum Mechanism {
    TIES, ROUNDING, INPUT, VIA, DECISION, OUTPUT, SATURATION, SCALE, CONTROL, FLAGS, BLOCK;

    /** The word faults.csv spells it with. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return word();
    }

    /** The mechanism a word names, or null. */
    static Mechanism parse(String word) {
        return Arrays.stream(values()).filter(m -> m.word().equals(word)).findFirst().orElse(null);
    }

    static String known() {
        return Arrays.stream(values()).map(Mechanism::word).collect(Collectors.joining(" "));
    }
}
