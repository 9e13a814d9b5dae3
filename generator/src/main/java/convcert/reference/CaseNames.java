package convcert.reference;

import convcert.spec.SpecTables;
import convcert.spi.CaseId;
import java.util.List;

/** How a profile's conversion cases are named: a case's identity (its name, path and key) and a variant's label. */
public final class CaseNames {

    private final SpecTables tables;

    CaseNames(SpecTables tables) {
        this.tables = tables;
    }

    /** A conversion case's identity; variant: "" for a state's first variant, else its label. */
    public CaseId.Conversion id(Case c, String variant) {
        return new CaseId.Conversion(tables.profile(), c.conversion().from().name(), c.conversion().to().name(),
                c.rounding().suffix(), c.stateLabel(), c.form().tableName(), c.ctrl(), variant);
    }

    /** "sat 60=0,48=1": a variant's form and the consulted CTRL bits, as case names show it. */
    public String variantLabel(Case c) {
        StringBuilder b = new StringBuilder(c.form().tableName());
        List<Integer> bits = tables.consultedBits(c.conversion());
        for (int i = 0; i < bits.size(); i++) {
            b.append(i == 0 ? " " : ",").append(bits.get(i)).append('=').append(c.ctrl().bit(bits.get(i)));
        }
        return b.toString();
    }
}
