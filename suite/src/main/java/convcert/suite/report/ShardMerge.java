package convcert.suite.report;

import convcert.common.UsageException;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Provenance;
import convcert.suite.model.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * convcert report merge: joins the reports of one certification split across CI jobs. Either every
 * shard K/N of an exhaustive run exactly once (per case, counts add up and the worst status wins), or
 * reports of disjoint cases (a CI matrix by pair). Anything else would count vectors twice or hide a
 * missing part, so it is refused naming the report at fault.
 */
public final class ShardMerge {

    private ShardMerge() {
    }

    /**
     * mixedBuilds: reports of different convcert builds (version or commit) may merge, each build named
     * in the merged report's notes; otherwise that is refused.
     */
    public static ConformanceReport merge(List<Path> folders, List<ConformanceReport> reports, boolean mixedBuilds) {
        ConformanceReport first = reports.getFirst();
        for (int i = 0; i < reports.size(); i++) {
            ConformanceReport r = reports.get(i);
            String where = folders.get(i).toString();
            if (r.provenance() == null) {
                throw new UsageException(where + ": the report has no provenance (written by an older convcert); rerun it");
            }
            if (r.partial()) {
                throw new UsageException(where + ": the report is partial (its run was interrupted); rerun it");
            }
            if (r.shard() != null && (!r.shard().matches("[1-9][0-9]{0,8}/[1-9][0-9]{0,8}")
                    || Long.parseLong(r.shard().split("/")[0]) > Long.parseLong(r.shard().split("/")[1]))) {
                throw new UsageException(where + ": shard '" + r.shard() + "' is not K/N with 1 <= K <= N");
            }
            for (ConformanceReport.Entry e : r.cases()) {
                String wrong = inconsistency(e, r);
                if (wrong != null) {
                    throw new UsageException(where + ": case " + e.name() + " " + wrong
                            + " (convcert never writes that; was the report edited?)");
                }
            }
            if ((r.shard() == null) != (first.shard() == null)) {
                throw new UsageException(where + ": cannot merge a shard of an exhaustive run with a whole run ("
                        + folders.getFirst() + " is " + describe(first) + ", this is " + describe(r) + ")");
            }
            if (!mixedBuilds && !build(first).equals(build(r))) {
                throw new UsageException(where + ": made by " + build(r) + ", " + folders.getFirst() + " by " + build(first)
                        + " (reports of one certification come from one build; --allow-mixed-builds merges them anyway)");
            }
            same(where, "implementation", first, r, x -> x.provenance().implementation());
            same(where, "profile", first, r, ConformanceReport::profile);
            same(where, "spec tables", first, r, ConformanceReport::tables);
            same(where, "decisions", first, r, x -> new TreeMap<>(x.decisions()).toString());
            same(where, "vectors", first, r, x -> x.provenance().vectors());
        }
        return first.shard() == null ? disjoint(folders, reports) : shards(folders, reports);
    }

    /** "convcert 0.5.0 (commit abc...)": the build that wrote a report. */
    private static String build(ConformanceReport r) {
        return "convcert " + r.provenance().convcert() + " (commit " + r.provenance().commit() + ")";
    }

    /**
     * What does not fit together in a case as convcert writes it, or null: a status and the counts it
     * implies, a case not run in a report not marked partial, the inputs of an exhaustive shard's case.
     */
    static String inconsistency(ConformanceReport.Entry e, ConformanceReport r) {
        long kinds = e.kinds().values().stream().mapToLong(Long::longValue).sum();
        if (e.vectors() < 0 || e.mismatches() < 0 || e.mismatches() > e.vectors()) {
            return "has " + e.mismatches() + " mismatches among " + e.vectors() + " vectors";
        }
        if (e.firstMismatches().size() > e.mismatches() || (e.mismatches() > 0) != (kinds > 0) || kinds < e.mismatches()) {
            return "lists " + e.firstMismatches().size() + " first mismatches and " + kinds + " mismatch kinds for "
                    + e.mismatches() + " mismatches";
        }
        String status = switch (e.status()) {
            case PASS -> e.vectors() > 0 && e.mismatches() == 0 ? null : "PASS";
            case FAIL, WAIVED -> e.mismatches() > 0 ? null : e.status().name();
            case NOT_APPLICABLE -> e.mismatches() == 0 ? null : "NOT_APPLICABLE";
            case NOT_RUN -> r.partial() ? null : "NOT_RUN in a report not marked partial";
            case ADAPTER_ERROR, ERROR -> null;
        };
        if (status != null) {
            return "is " + status + " with " + e.mismatches() + " mismatches among " + e.vectors() + " vectors";
        }
        boolean judged = e.status() == Status.PASS || e.status() == Status.FAIL || e.status() == Status.WAIVED;
        if (r.shard() != null && judged && e.vectors() != shardSize(r.shard())) {
            return "has " + e.vectors() + " inputs where shard " + r.shard() + " has " + shardSize(r.shard());
        }
        return null;
    }

    /** The inputs of shard K/N of 2^32 (the last one takes the remainder), as certify splits them. */
    static long shardSize(String shard) {
        String[] kn = shard.split("/");
        long k = Long.parseLong(kn[0]);
        long n = Long.parseLong(kn[1]);
        long size = (1L << 32) / n;
        return k == n ? (1L << 32) - size * (n - 1) : size;
    }

    private static String describe(ConformanceReport r) {
        return r.shard() == null ? "a whole run" : "shard " + r.shard();
    }

    private static void same(String where, String what, ConformanceReport a, ConformanceReport b,
                             Function<ConformanceReport, String> field) {
        if (!Objects.equals(field.apply(a), field.apply(b))) {
            throw new UsageException(where + ": " + what + " differs from the first report's: '" + field.apply(b)
                    + "' vs '" + field.apply(a) + "'");
        }
    }

    private static ConformanceReport shards(List<Path> folders, List<ConformanceReport> reports) {
        int n = -1;
        Map<Integer, Path> seen = new TreeMap<>();
        for (int i = 0; i < reports.size(); i++) {
            String[] kn = reports.get(i).shard().split("/");
            int k = Integer.parseInt(kn[0]);
            int count = Integer.parseInt(kn[1]);
            if (n >= 0 && count != n) {
                throw new UsageException(folders.get(i) + ": shard " + reports.get(i).shard() + " is not one of " + n + " shards");
            }
            n = count;
            Path before = seen.put(k, folders.get(i));
            if (before != null) {
                throw new UsageException(folders.get(i) + ": shard " + k + "/" + n + " is already merged from " + before);
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            if (!seen.containsKey(k)) {
                missing.add(k);
            }
        }
        if (!missing.isEmpty()) {
            final int total = n;
            List<String> named = missing.stream().limit(10).map(k -> k + "/" + total).toList();
            throw new UsageException(missing.size() + " of " + n + " shards missing: " + String.join(", ", named)
                    + (missing.size() > named.size() ? ", ..." : "") + " (merge needs every shard of the run exactly once)");
        }
        Map<String, ConformanceReport.Entry> merged = new LinkedHashMap<>();
        List<String> names = reports.getFirst().cases().stream().map(ConformanceReport.Entry::name).sorted().toList();
        for (int i = 0; i < reports.size(); i++) {
            List<String> these = reports.get(i).cases().stream().map(ConformanceReport.Entry::name).sorted().toList();
            if (!these.equals(names)) {
                throw new UsageException(folders.get(i) + ": its cases differ from " + folders.getFirst()
                        + "'s (shards of one run certify the same cases)");
            }
            for (ConformanceReport.Entry e : reports.get(i).cases()) {
                merged.merge(e.name(), e, ShardMerge::combine);
            }
        }
        return result(folders, reports, new ArrayList<>(merged.values()), "every shard of " + n + " merged");
    }

    private static ConformanceReport disjoint(List<Path> folders, List<ConformanceReport> reports) {
        Map<String, Path> owner = new LinkedHashMap<>();
        List<ConformanceReport.Entry> all = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            for (ConformanceReport.Entry e : reports.get(i).cases()) {
                Path before = owner.put(e.name(), folders.get(i));
                if (before != null) {
                    throw new UsageException(folders.get(i) + ": case " + e.name() + " is also in " + before
                            + " (only shards of an exhaustive run, or reports of different cases, merge)");
                }
                all.add(e);
            }
        }
        return result(folders, reports, all, reports.size() + " reports of different cases merged");
    }

    private static ConformanceReport result(List<Path> folders, List<ConformanceReport> reports,
                                            List<ConformanceReport.Entry> entries, String how) {
        ConformanceReport first = reports.getFirst();
        List<String> notes = new ArrayList<>(reports.stream().flatMap(r -> r.notes().stream()).distinct().toList());
        notes.add(how); // every report's notes, once each: shards may have been run differently (--jobs)
        for (int i = 0; i < reports.size(); i++) { // and where each part was made, by which build
            ConformanceReport r = reports.get(i);
            Provenance p = r.provenance();
            notes.add("merged " + (r.shard() != null ? "shard " + r.shard() : "report") + " from " + folders.get(i) + ": "
                    + build(r) + ", tables " + r.tables() + ", " + p.date() + " on " + p.host() + ", " + p.jdk() + ", " + p.os());
        }
        Provenance p = first.provenance();
        Provenance now = Provenance.of(p.implementation(), p.vectors());
        return new ConformanceReport(first.tool(), now, first.adapter(), first.profile(), first.tables(), first.decisions(),
                first.documents(), first.source(), null, false, first.declared(), first.unmatched(), notes, null, List.of())
                .withCases(entries);
    }

    private static <K> Map<K, Long> mergeCounts(Map<K, Long> a, Map<K, Long> b) {
        Map<K, Long> sum = new LinkedHashMap<>(a);
        b.forEach((k, v) -> sum.merge(k, v, Long::sum));
        return sum;
    }

    /** The binades of two shards in value order again ("0", then 2^e by e, "inf", "NaN"), as one run lists them. */
    static Map<String, Long> binadeOrder(Map<String, Long> where) {
        Map<String, Long> ordered = new LinkedHashMap<>();
        where.entrySet().stream().sorted(java.util.Comparator.comparingInt(e -> switch (e.getKey()) {
            case "0" -> Integer.MIN_VALUE;
            case "inf" -> Integer.MAX_VALUE - 1;
            case "NaN" -> Integer.MAX_VALUE;
            default -> e.getKey().matches("2\\^-?\\d{1,6}") ? Integer.parseInt(e.getKey().substring(2)) : 0;
        })).forEach(e -> ordered.put(e.getKey(), e.getValue()));
        return ordered;
    }

    private static ConformanceReport.Entry combine(ConformanceReport.Entry a, ConformanceReport.Entry b) {
        Map<MismatchKind, Long> kinds = mergeCounts(a.kinds(), b.kinds());
        List<FirstMismatch> first = new ArrayList<>(a.firstMismatches());
        first.addAll(b.firstMismatches());
        return new ConformanceReport.Entry(a.name(), a.pair(), a.from(), a.to(), a.rounding(), a.state(), a.form(),
                a.ctrl(), Status.worse(a.status(), b.status()), a.vectors() + b.vectors(), a.mismatches() + b.mismatches(),
                kinds, first.subList(0, Math.min(first.size(), 20)), a.rules().isEmpty() ? b.rules() : a.rules(),
                a.message() != null ? a.message() : b.message(), a.waiver() != null ? a.waiver() : b.waiver(),
                a.millis() + b.millis(), a.diagnosis() != null ? a.diagnosis() : b.diagnosis(),
                binadeOrder(mergeCounts(a.where(), b.where())),
                a.inputMap() == null ? b.inputMap() : a.inputMap().plus(b.inputMap()));
    }
}
