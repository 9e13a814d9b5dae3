package convcert.spec;

import java.util.Set;

/** One row of conversions.csv: a (source, destination) pair the API offers. */
public record Conversion(Format from, Format to, Set<Rounding> modes, Set<Form> forms, String group,
                         Rounding implicitRounding, String api, String source, Location location) {

    public String pairName() {
        return from.name() + "->" + to.name();
    }

    /** Rounding to an integral value in the same format (half->half, float->float). */
    public boolean sameType() {
        return from.equals(to);
    }
}
