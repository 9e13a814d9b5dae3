package convcert.spec;

import java.util.Locale;

/**
 * The effective saturation behaviour that the saturation table selects.
 * NOSAT and SAT follow Table 3; WRAP keeps the low bits of an integer result. PROPAGATE (IEEE P3109's
 * SatPropagate) clamps finite values as SAT does but keeps an infinity where the destination has one of
 * its sign, and NaN stays NaN.
 */
public enum Saturation {
    NOSAT, SAT, WRAP, PROPAGATE;

    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Saturation parse(String name) {
        return Labels.find(values(), Saturation::tableName, name);
    }
}
