package convcert.reference;

import convcert.common.Suggest;
import convcert.common.UsageException;
import convcert.spec.Decision;
import convcert.spec.SpecTables;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The options a run chooses: decisions.csv's defaults with the overrides of the command line, each checked. */
final class DecisionChoices {

    private DecisionChoices() {
    }

    /** The option of each switch, by its index; listed: the decisions the profile lists (the only ones overrides may name). */
    static Enum<?>[] choose(SpecTables tables, List<Semantics.Switch<?>> registry, Set<String> listed, Map<String, String> overrides) {
        for (String id : overrides.keySet()) {
            if (!listed.contains(id)) {
                throw new UsageException("unknown decision '" + id + "'" + Suggest.nearest(id, listed)
                        + "; selectable decisions of profile " + tables.profile() + ": " + String.join(" ", listed));
            }
        }
        Enum<?>[] chosen = new Enum<?>[registry.size()];
        for (Semantics.Switch<?> s : registry) {
            Decision d = tables.decisions().get(s.id());
            if (d == null) { // a switch the profile cannot reach: its first option, not reported
                chosen[s.index()] = s.options().getEnumConstants()[0];
                continue;
            }
            String option = overrides.getOrDefault(s.id(), d.defaultOption());
            int index = s.optionNames().indexOf(option);
            if (index < 0) {
                throw new UsageException("decision " + d.id() + " has no option '" + option + "'"
                        + Suggest.nearest(option, s.optionNames()) + "; options: " + String.join(" ", s.optionNames()));
            }
            chosen[s.index()] = s.options().getEnumConstants()[index];
        }
        return chosen;
    }
}
