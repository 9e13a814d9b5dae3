package convcert.suite.runner;

import convcert.reference.Reference;
import convcert.reference.Semantics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Other readings of a set of decisions, as hypotheses of the diagnosis: an implementation that reads a
 * decision otherwise than the run (the OCP scale floor where the device takes the ceiling) fails in a
 * pattern that this reading reproduces exactly. Every non-empty combination of options other than the
 * chosen ones, fewest changes first, so that the simplest explanation is tried and named first.
 */
final class Readings {

    private Readings() {
    }

    /** The other readings of the decisions that the reference's profile lists (decision id -> option). */
    static List<Map<String, String>> other(Reference reference, List<Semantics.Switch<?>> decisions) {
        List<Map<String, String>> readings = new ArrayList<>();
        readings.add(Map.of());
        for (Semantics.Switch<?> s : decisions) {
            String chosen = reference.semantics().choices().get(s.id());
            if (chosen == null) {
                continue;
            }
            List<Map<String, String>> more = new ArrayList<>();
            for (Map<String, String> r : readings) {
                for (String option : s.optionNames()) {
                    if (!option.equals(chosen)) {
                        Map<String, String> m = new LinkedHashMap<>(r);
                        m.put(s.id(), option);
                        more.add(m);
                    }
                }
            }
            readings.addAll(more);
        }
        return readings.stream().filter(r -> !r.isEmpty()).sorted(Comparator.comparingInt(Map::size)).toList();
    }

    /** The reference under a reading: the run's choices with the reading's on top. */
    static Reference under(Reference reference, Map<String, String> reading) {
        Map<String, String> choices = new LinkedHashMap<>(reference.semantics().choices());
        choices.putAll(reading);
        return new Reference(reference.tables(), Semantics.of(reference.tables(), choices));
    }

    /** A reading as the diagnosis names it: "mx-scale=ceil mx-nan=ignore-nan". */
    static String name(Map<String, String> reading) {
        return reading.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
