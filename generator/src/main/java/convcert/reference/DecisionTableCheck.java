package convcert.reference;

import convcert.spec.Decision;
import convcert.spec.Location;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.util.List;

/** decisions.csv against the reference: the one place a table and the implemented options are compared. */
final class DecisionTableCheck {

    private DecisionTableCheck() {
    }

    /**
     * Checks that decisions.csv and the reference agree: every switch the profile needs has its row with
     * exactly the options implemented, and no other row offers alternatives the reference cannot produce.
     */
    static void check(SpecTables tables, List<Semantics.Switch<?>> registry) {
        for (Semantics.Switch<?> s : registry) {
            Decision d = tables.decisions().get(s.id());
            if (d == null && s.needs() != null && !s.needs().test(tables)) {
                continue;
            }
            if (d == null) {
                throw new TableException(new Location(tables.directory().resolve("decisions.csv"), 0, 0),
                        "no row for decision '" + s.id() + "', which the reference implements");
            }
            if (!d.options().equals(s.optionNames())) {
                throw new TableException(d.location(), "decision " + d.id() + " lists options " + d.options()
                        + " but the reference implements " + s.optionNames());
            }
        }
        for (Decision d : tables.decisions().values()) {
            if (d.options().size() > 1 && Semantics.find(d.id()) == null) {
                throw new TableException(d.location(), "decision " + d.id() + " offers alternatives " + d.options()
                        + " that the reference does not implement");
            }
        }
    }
}
