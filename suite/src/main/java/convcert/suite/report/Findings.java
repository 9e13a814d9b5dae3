package convcert.suite.report;

import convcert.spi.CaseKey;
import convcert.suite.model.ConformanceReport.Entry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cases that did not pass, grouped by what a user has to fix: the variants of one state (the API
 * forms and CTRL settings that select it) that fail identically are one finding, shown once with the
 * list of its variants; a variant that fails otherwise is a finding of its own.
 */
public final class Findings {

    private Findings() {
    }

    /** One thing to fix: shown stands for every variant in variants, which all ended the same way. */
    public record Finding(Entry shown, List<Entry> variants) {

        /** The state's name (float->half/rn-sat), or the variant's when it fails alone among several. */
        public String name() {
            return variants.size() > 1 ? state(shown) : shown.name();
        }
    }

    /** The findings of the entries (in their order), every case that applies and did not pass. */
    public static List<Finding> of(List<Entry> entries) {
        Map<List<Object>, List<Entry>> groups = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.status().finding()) {
                groups.computeIfAbsent(List.of(state(e), signature(e)), k -> new ArrayList<>()).add(e);
            }
        }
        return groups.values().stream().map(g -> new Finding(g.getFirst(), List.copyOf(g))).toList();
    }

    /** "float->half/rn-sat": the name of a case's primary variant, the state every variant selects. */
    static String state(Entry e) {
        return new CaseKey("", e.from(), e.to(), e.rounding(), e.state(), e.form(), Map.of()).stateName();
    }

    /** What two variants share when they fail identically (a diagnosis's time aside). */
    private static List<Object> signature(Entry e) {
        return java.util.Arrays.asList(e.status(), e.vectors(), e.mismatches(), e.kinds(), e.firstMismatches(),
                e.diagnosis() == null ? null : e.diagnosis().took(0), Objects.requireNonNullElse(e.message(), ""));
    }

    /** "form sat, CTRL 60=0,48=1": how a variant selects its state. */
    public static String variant(Entry e) {
        return "form " + e.form() + (e.ctrl() == null || e.ctrl().isEmpty() ? "" : ", CTRL " + e.ctrl());
    }
}
