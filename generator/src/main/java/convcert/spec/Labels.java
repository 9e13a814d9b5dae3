package convcert.spec;

import java.util.function.Function;

/** Finds the constant of an enum whose label (its spelling in tables and options) is the given text. */
public final class Labels {

    private Labels() {
    }

    /** The constant whose label equals text, or null. */
    public static <E extends Enum<E>> E find(E[] values, Function<E, String> label, String text) {
        for (E value : values) {
            if (label.apply(value).equals(text)) {
                return value;
            }
        }
        return null;
    }
}
