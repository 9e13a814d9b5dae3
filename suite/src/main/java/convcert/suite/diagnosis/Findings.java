package convcert.suite.diagnosis;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.spec.Lane;
import convcert.suite.model.Diagnosis.Finding;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * Where a case's mismatches lie and how they differ, whether or not a cause explains them: how each wrong
 * result relates to the expected one (Relation, counted over every mismatch), the stretches of the input space
 * they fill (between the nearest passing inputs: "464 < |x| < 480"), or where they are too many stretches, the
 * kinds of inputs and the bands of values, and how many are ties. A finding is a fact about the vectors, never
 * a cause.
 */
final class Findings {

    /** Stretches listed one by one: more read as a band summary. */
    private static final int STRETCHES = 6;
    /** Relations listed one by one; the rest are summed. */
    private static final int RELATIONS = 4;

    private final Converter reference;
    private final FormatCodec src;
    private final LongPredicate ties;
    private final Regions regions;

    Findings(Converter reference, LongPredicate ties) {
        this.reference = reference;
        this.src = reference.source();
        this.ties = ties;
        this.regions = new Regions(Cells.of(src), src);
    }

    /** The findings of a case: set, its whole vector set (null for an exhaustive range, whose runs the log keeps). */
    List<Finding> of(MismatchLog log, Map<Long, Long> wrong, Supplier<? extends VectorSource> set) {
        List<Finding> found = new ArrayList<>(relations(log));
        List<Finding> stretches = set != null ? stretchesOf(set.get(), wrong, log) : stretchesOf(log);
        if (stretches != null && stretches.size() <= STRETCHES) {
            found.addAll(points(stretches));
        } else {
            found.add(new Finding(log.total(), inputKinds(log)));
            boolean[] in = new boolean[log.count.length];
            boolean[] out = new boolean[log.count.length];
            for (int c = 0; c < in.length; c++) {
                in[c] = log.count[c] > 0;
                out[c] = !in[c];
            }
            String bands = regions.words(in, out, null);
            if (bands != null && bands.split(" or ").length <= STRETCHES) {
                found.add(new Finding(log.total(), "inputs in " + bands));
            }
        }
        Finding t = ties(wrong, log.total());
        if (t != null) {
            found.add(t);
        }
        Finding scales = set == null ? null : scales(set.get(), wrong, log.total());
        if (scales != null) {
            found.add(scales);
        }
        return found;
    }

    /**
     * Which scales the mismatches of a scaled case have (the scale beside each value): the bands of scale values
     * where every vector of the set differs, and where none does; null for a case without scales, or where the
     * mismatches are not all kept.
     */
    private Finding scales(VectorSource vectors, Map<Long, Long> wrong, long total) {
        Lane lane = reference.lane();
        if (lane == null || lane == Lane.RANDOM || wrong.size() != total) {
            return null;
        }
        java.util.TreeMap<Integer, long[]> byScale = new java.util.TreeMap<>(); // scale -> {vectors, mismatches}
        long[] in = new long[CauseCheck.CHUNK];
        long[] expected = new long[CauseCheck.CHUNK];
        for (int n; (n = vectors.next(in, expected)) > 0; ) {
            for (int i = 0; i < n; i++) {
                long[] c = byScale.computeIfAbsent(reference.operands().scaleExponent(in[i]), k -> new long[2]);
                c[0]++;
                c[1] += wrong.containsKey(in[i]) ? 1 : 0;
            }
        }
        List<String> all = new ArrayList<>();
        List<String> some = new ArrayList<>();
        List<String> none = new ArrayList<>();
        Integer from = null;
        int kind = -1;
        Integer last = null;
        for (Map.Entry<Integer, long[]> e : byScale.entrySet()) {
            int k = e.getValue()[1] == 0 ? 0 : e.getValue()[1] == e.getValue()[0] ? 2 : 1;
            if (k != kind) {
                if (from != null) {
                    List.of(none, some, all).get(kind).add(from.equals(last) ? "" + from : from + ".." + last);
                }
                from = e.getKey();
                kind = k;
            }
            last = e.getKey();
        }
        if (from != null) {
            List.of(none, some, all).get(kind).add(from.equals(last) ? "" + from : from + ".." + last);
        }
        if (all.size() + some.size() > STRETCHES) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (!all.isEmpty()) {
            parts.add("every vector differs with scale " + String.join(", ", all));
        }
        if (!some.isEmpty()) {
            parts.add("some differ with scale " + String.join(", ", some));
        }
        if (!none.isEmpty()) {
            parts.add("none differs with scale " + String.join(", ", none));
        }
        return new Finding(total, "by scale: " + String.join("; ", parts));
    }

    private List<Finding> relations(MismatchLog log) {
        Integer[] keys = new Integer[Relation.KEYS];
        Arrays.setAll(keys, k -> k);
        Arrays.sort(keys, Comparator.comparingLong((Integer k) -> -log.relations[k]));
        List<Finding> found = new ArrayList<>();
        long rest = log.total();
        for (int i = 0; i < RELATIONS && log.relations[keys[i]] > 0; i++) {
            found.add(new Finding(log.relations[keys[i]], Relation.text(keys[i])));
            rest -= log.relations[keys[i]];
        }
        if (rest > 0) {
            found.add(new Finding(rest, "other differences"));
        }
        return found;
    }

    /** The runs of an exhaustive range's mismatching inputs, each between its passing neighbours; null if not all kept. */
    private List<Finding> stretchesOf(MismatchLog log) {
        if (!log.runsComplete()) {
            return null;
        }
        Map<String, Long> stretches = new LinkedHashMap<>();
        for (long[] run : log.runs) {
            stretches.merge(stretch(run[0], run[1], run[0] - 1, run[1] + 1), run[1] - run[0] + 1, Long::sum);
        }
        return symmetric(stretches, "every input there differs");
    }

    /** The runs of a vector set's mismatches in the order of values, between the nearest passing vectors. */
    private List<Finding> stretchesOf(VectorSource vectors, Map<Long, Long> wrong, MismatchLog log) {
        if (wrong.size() != log.total()) {
            return null;
        }
        List<long[]> all = new ArrayList<>(); // {rank, operand value, mismatch}
        long[] in = new long[CauseCheck.CHUNK];
        long[] expected = new long[CauseCheck.CHUNK];
        for (int n; (n = vectors.next(in, expected)) > 0; ) {
            for (int i = 0; i < n; i++) {
                long v = in[i] & src.mask();
                Decoded d = src.decode(v);
                long rank = d.kind() == Decoded.Kind.NAN ? Long.MAX_VALUE : src.rank(v);
                all.add(new long[] {rank, v, wrong.containsKey(in[i]) ? 1 : 0});
            }
        }
        all.sort(Comparator.comparingLong(a -> a[0]));
        Map<String, Long> stretches = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i)[2] == 0) {
                continue;
            }
            int j = i;
            while (j + 1 < all.size() && all.get(j + 1)[2] == 1) {
                j++;
            }
            long below = i > 0 ? all.get(i - 1)[1] : -1;
            long above = j + 1 < all.size() ? all.get(j + 1)[1] : -1;
            long n = 0;
            for (int k = i; k <= j; k++) {
                n += all.get(k)[2];
            }
            stretches.merge(stretch(all.get(i)[1], all.get(j)[1], below, above), n, Long::sum);
            i = j;
        }
        return symmetric(stretches, "every vector of the set there differs");
    }

    /** A stretch of inputs first..last in words, bounded by the passing inputs beside it (-1: none). */
    private String stretch(long first, long last, long below, long above) {
        Decoded a = src.decode(first & src.mask());
        Decoded b = src.decode(last & src.mask());
        if (a.kind() == Decoded.Kind.NAN || b.kind() == Decoded.Kind.NAN) {
            return a.kind() == Decoded.Kind.NAN && b.kind() == Decoded.Kind.NAN ? "NaN inputs " + hex(first) + ".." + hex(last)
                    : "inputs " + hex(first) + ".." + hex(last);
        }
        BigDecimal x0 = value(first);
        BigDecimal x1 = value(last);
        if (x0 == null || x1 == null) {
            return "inputs " + hex(first) + ".." + hex(last);
        }
        boolean ascending = x0.compareTo(x1) <= 0;
        long min = ascending ? first : last;
        long max = ascending ? last : first;
        // the neighbours in the order of values: the walk's below may lie above the stretch (negative magnitudes)
        long left = value(below) != null && value(below).compareTo(value(min)) < 0 ? below
                : value(above) != null && value(above).compareTo(value(min)) < 0 ? above : -1;
        long right = value(above) != null && value(above).compareTo(value(max)) > 0 ? above
                : value(below) != null && value(below).compareTo(value(max)) > 0 ? below : -1;
        if (x0.compareTo(x1) == 0) {
            return "x = " + regions.show(min);
        }
        return (left < 0 ? regions.show(min) + " <= " : regions.show(left) + " < ") + "x"
                + (right < 0 ? " <= " + regions.show(max) : " < " + regions.show(right));
    }

    /** Stretches with their single values ("x = v") listed in one finding. */
    private static List<Finding> points(List<Finding> found) {
        List<Finding> points = found.stream().filter(f -> f.text().contains(" = ")).toList();
        if (points.size() < 2) {
            return found;
        }
        List<Finding> joined = new ArrayList<>(found.stream().filter(f -> !f.text().contains(" = ")).toList());
        String x = points.stream().allMatch(f -> f.text().startsWith("|x|")) ? "|x|" : "x";
        joined.add(new Finding(points.stream().mapToLong(Finding::mismatches).sum(), x + " in {" + String.join(", ",
                points.stream().map(f -> f.text().replaceAll("^\\|?x\\|? = ", (x.equals("x") && f.text().startsWith("|x|")) ? "±" : ""))
                        .toList()) + "}"));
        return joined;
    }

    /** Stretches with their mirror images across zero written once, with |x|. */
    private static List<Finding> symmetric(Map<String, Long> stretches, String every) {
        List<Finding> found = new ArrayList<>();
        Map<String, Long> left = new LinkedHashMap<>(stretches);
        for (Map.Entry<String, Long> e : stretches.entrySet()) {
            if (!left.containsKey(e.getKey())) {
                continue;
            }
            String mirror = mirror(e.getKey());
            if (mirror != null && !mirror.equals(e.getKey()) && left.containsKey(mirror)) {
                String positive = negative(e.getKey()) ? mirror : e.getKey();
                found.add(new Finding(e.getValue() + left.get(mirror), with(positive.replace(" x ", " |x| ")
                        .replace("x =", "|x| ="), every)));
                left.remove(mirror);
            } else {
                found.add(new Finding(e.getValue(), with(e.getKey(), every)));
            }
            left.remove(e.getKey());
        }
        return found;
    }

    /** A stretch with what holds in it: a single value needs no saying. */
    private static String with(String stretch, String every) {
        return stretch.contains(" = ") ? stretch : stretch + " (" + every + ")";
    }

    /** "-b < x < -a" for "a < x < b" and back; null for other shapes. */
    private static String mirror(String s) {
        String[] p = s.split(" ");
        if (p.length == 5 && p[2].equals("x")) {
            return negate(p[4]) + " " + p[3] + " x " + p[1] + " " + negate(p[0]);
        }
        return p.length == 3 && p[0].equals("x") && p[1].equals("=") ? "x = " + negate(p[2]) : null;
    }

    private static String negate(String v) {
        return v.startsWith("-") ? v.substring(1) : v.equals("0") ? "0" : "-" + v;
    }

    /** Whether a stretch lies below zero: its upper bound (or its one value) is negative. */
    private static boolean negative(String s) {
        String[] p = s.split(" ");
        return p[p.length - 1].startsWith("-");
    }

    private String inputKinds(MismatchLog log) {
        String[] names = {"zero", "subnormal", "normal", "infinite", "NaN"};
        List<String> kinds = new ArrayList<>();
        long positive = Arrays.stream(log.inputs[0]).sum();
        long negative = Arrays.stream(log.inputs[1]).sum();
        for (int k = 0; k < names.length; k++) {
            long n = log.inputs[0][k] + log.inputs[1][k];
            if (n > 0) {
                kinds.add(String.format("%,d %s", n, src.isInteger() && k == 2 ? "nonzero" : names[k]));
            }
        }
        String signs = positive > 0 && negative > 0 ? "both signs" : negative > 0 ? "negative inputs only" : "positive inputs only";
        return "inputs: " + String.join(", ", kinds) + (src.signBit() == 0 ? "" : "; " + signs);
    }

    /** How many of the mismatches kept are ties; null where the case has none. */
    private Finding ties(Map<Long, Long> wrong, long total) {
        if (ties == null || wrong.isEmpty()) {
            return null;
        }
        long n = wrong.keySet().stream().filter(ties::test).count();
        String of = wrong.size() < total ? String.format(" (of the first %,d)", wrong.size()) : "";
        return new Finding(n, (n == wrong.size() ? "all are ties" : n == 0 ? "none is a tie" : String.format("%,d are ties", n))
                + " (an input exactly halfway between two results)" + of);
    }

    private BigDecimal value(long bits) {
        return bits < 0 || bits > src.mask() ? null : regions.value(bits);
    }

    private String hex(long bits) {
        return src.format().hex(bits & src.mask());
    }
}
