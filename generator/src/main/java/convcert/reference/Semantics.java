package convcert.reference;

import convcert.spec.Decision;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The options chosen for the decisions (decisions.csv) that change results. Each option enum's
 * constants are the decision's options, spelled in lower case with '-' for '_'; the table must list
 * exactly those, so the table and the reference cannot drift apart.
 */
public record Semantics(DirectedOverflow directedOverflow, OddOverflow oddOverflow, NanEncoding nanEncoding,
                        HybridBand hybridBand, HybridExact hybridExact, SubnormalResults subnormalResults,
                        NanComparison nanComparison, FiniteNan finiteNan, UnsignedNegative unsignedNegative,
                        ExponentZero exponentZero, MxScale mxScale, MxNan mxNan, java.util.Set<String> listed) {

    /** Non-saturating overflow under rz, rd, ru. */
    public enum DirectedOverflow { LARGEST_FINITE, INFINITY }

    /** Non-saturating overflow under ro. */
    public enum OddOverflow { LARGEST_FINITE, INFINITY }

    /** The NaN a conversion produces. */
    public enum NanEncoding { PRESERVE, CANONICAL }

    /** HiFloat8 hybrid rounding between TA's overflow threshold and the next binade. */
    public enum HybridBand { PSEUDO_CODE, TA_THRESHOLD }

    /** HiFloat8 hybrid rounding of exactly representable inputs. */
    public enum HybridExact { ROUND_UP, KEEP }

    /** Subnormal floating results. */
    public enum SubnormalResults { KEEP, FLUSH }

    /** How certification compares NaN results (the suite's rule; results themselves do not change). */
    public enum NanComparison { ANY, EXACT }

    /** What a NaN input becomes in a format with no NaN (OCP FP4, FP6). */
    public enum FiniteNan { LARGEST_POSITIVE, ZERO }

    /** A negative input converted to an unsigned floating format (OCP E8M0): its magnitude, or NaN. */
    public enum UnsignedNegative { ABSOLUTE, NAN }

    /** A zero converted to an exponent-only format (OCP E8M0), which has no zero: its smallest value, or NaN. */
    public enum ExponentZero { SMALLEST, NAN }

    /**
     * How a block's shared scale follows from its largest magnitude amax: floor(log2 amax) - emax of the
     * element (OCP MX v1.0 6.3); the same after rounding amax to the element's mantissa width (ties up);
     * ceil(log2 amax) - emax; or the smallest power of two not below amax / largest element.
     */
    public enum MxScale { FLOOR, EVEN, CEIL, RCEIL }

    /** What a NaN element does to its block: the scale becomes NaN, or the maximum ignores it. */
    public enum MxNan { NAN_SCALE, IGNORE_NAN }

    /** Decision id of each switch, in the order of the record components. */
    public static final Map<String, Class<? extends Enum<?>>> SWITCHES = switches();

    private static Map<String, Class<? extends Enum<?>>> switches() {
        Map<String, Class<? extends Enum<?>>> map = new LinkedHashMap<>();
        map.put("directed-overflow", DirectedOverflow.class);
        map.put("odd-overflow", OddOverflow.class);
        map.put("nan-encoding", NanEncoding.class);
        map.put("hr-band", HybridBand.class);
        map.put("hr-exact", HybridExact.class);
        map.put("subnormal-results", SubnormalResults.class);
        map.put("nan-comparison", NanComparison.class);
        map.put("finite-nan", FiniteNan.class);
        map.put("unsigned-negative", UnsignedNegative.class);
        map.put("exponent-zero", ExponentZero.class);
        map.put("mx-scale", MxScale.class);
        map.put("mx-nan", MxNan.class);
        return map;
    }

    public static String optionName(Enum<?> option) {
        return option.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static List<String> optionNames(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).map(Semantics::optionName).toList();
    }

    /** Switches a profile may leave out of decisions.csv when none of its formats can reach them. */
    private static final java.util.Set<String> OPTIONAL = java.util.Set.of("finite-nan", "unsigned-negative",
            "directed-overflow", "odd-overflow", "hr-band", "hr-exact", "exponent-zero", "mx-scale", "mx-nan");

    /**
     * Checks that decisions.csv and the reference agree: every switch the profile needs has its row with
     * exactly the options implemented, and no other row offers alternatives the reference cannot produce.
     * finite-nan is needed exactly when a format has no NaN.
     */
    public static void checkTable(SpecTables tables) {
        boolean finiteOnly = tables.formats().stream().anyMatch(f -> !f.isInteger() && !f.hasNan());
        boolean unsigned = tables.formats().stream().anyMatch(f -> f.layout() == convcert.spec.Layout.EXPONENT);
        boolean tapered = tables.formats().stream().anyMatch(f -> f.layout() == convcert.spec.Layout.TAPERED);
        java.util.Set<convcert.spec.Rounding> modes = java.util.EnumSet.noneOf(convcert.spec.Rounding.class);
        tables.conversions().forEach(c -> modes.addAll(c.modes()));
        for (var entry : SWITCHES.entrySet()) {
            Decision d = tables.decisions().get(entry.getKey());
            boolean needed = switch (entry.getKey()) {
                case "finite-nan" -> finiteOnly;
                case "unsigned-negative", "exponent-zero" -> unsigned;
                case "directed-overflow" -> modes.contains(convcert.spec.Rounding.RZ)
                        || modes.contains(convcert.spec.Rounding.RU) || modes.contains(convcert.spec.Rounding.RD);
                case "odd-overflow" -> modes.contains(convcert.spec.Rounding.RO);
                case "hr-band", "hr-exact" -> tapered;
                case "mx-scale", "mx-nan" -> tables.blocks().values().stream().anyMatch(b -> b.scaled());
                default -> true;
            };
            if (d == null && OPTIONAL.contains(entry.getKey()) && !needed) {
                continue;
            }
            if (d == null) {
                throw new TableException(new convcert.spec.Location(tables.directory().resolve("decisions.csv"), 0, 0),
                        "no row for decision '" + entry.getKey() + "', which the reference implements");
            }
            List<String> implemented = optionNames(entry.getValue());
            if (!d.options().equals(implemented)) {
                throw new TableException(d.location(), "decision " + d.id() + " lists options " + d.options()
                        + " but the reference implements " + implemented);
            }
        }
        for (Decision d : tables.decisions().values()) {
            if (d.options().size() > 1 && !SWITCHES.containsKey(d.id())) {
                throw new TableException(d.location(), "decision " + d.id() + " offers alternatives " + d.options()
                        + " that the reference does not implement");
            }
        }
    }

    /** The table defaults, with the given overrides (decision id -> option name). */
    public static Semantics of(SpecTables tables, Map<String, String> overrides) {
        checkTable(tables);
        java.util.Set<String> listed = new java.util.LinkedHashSet<>();
        SWITCHES.keySet().stream().filter(id -> tables.decisions().containsKey(id)).forEach(listed::add);
        for (String id : overrides.keySet()) {
            if (!listed.contains(id)) {
                throw new UsageException("unknown decision '" + id + "'; selectable decisions of profile "
                        + tables.profile() + ": " + String.join(" ", listed));
            }
        }
        Object[] chosen = new Object[SWITCHES.size()];
        int i = 0;
        for (var entry : SWITCHES.entrySet()) {
            Decision d = tables.decisions().get(entry.getKey());
            if (d == null) { // a switch the profile cannot reach: its first option, not reported
                chosen[i++] = entry.getValue().getEnumConstants()[0];
                continue;
            }
            String option = overrides.getOrDefault(entry.getKey(), d.defaultOption());
            List<String> names = optionNames(entry.getValue());
            int index = names.indexOf(option);
            if (index < 0) {
                throw new UsageException("decision " + d.id() + " has no option '" + option + "'; options: "
                        + String.join(" ", names));
            }
            chosen[i++] = entry.getValue().getEnumConstants()[index];
        }
        return new Semantics((DirectedOverflow) chosen[0], (OddOverflow) chosen[1], (NanEncoding) chosen[2],
                (HybridBand) chosen[3], (HybridExact) chosen[4], (SubnormalResults) chosen[5], (NanComparison) chosen[6],
                (FiniteNan) chosen[7], (UnsignedNegative) chosen[8], (ExponentZero) chosen[9], (MxScale) chosen[10], (MxNan) chosen[11],
                java.util.Set.copyOf(listed));
    }

    public static Semantics defaults(SpecTables tables) {
        return of(tables, Map.of());
    }

    /** The choices as decision=option pairs, in table order. */
    public Map<String, String> choices() {
        List<Enum<?>> values = List.of(directedOverflow, oddOverflow, nanEncoding, hybridBand, hybridExact,
                subnormalResults, nanComparison, finiteNan, unsignedNegative, exponentZero, mxScale, mxNan);
        Map<String, String> map = new LinkedHashMap<>();
        int i = 0;
        for (String id : SWITCHES.keySet()) {
            Enum<?> value = values.get(i++);
            if (listed.contains(id)) {
                map.put(id, optionName(value));
            }
        }
        return map;
    }

    @Override
    public String toString() {
        return choices().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
