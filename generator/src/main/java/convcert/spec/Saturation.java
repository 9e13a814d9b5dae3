package convcert.spec;

import java.util.Locale;

/**
 * The effective saturation behaviour that the saturation table selects.
 * NOSAT and SAT follow Table 3; WRAP keeps the low bits of an integer result.
 */
public enum Saturation {
    NOSAT, SAT, WRAP;

    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Saturation parse(String name) {
        return Labels.find(values(), Saturation::tableName, name);
    }
}
