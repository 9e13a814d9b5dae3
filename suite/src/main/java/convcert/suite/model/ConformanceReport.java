package convcert.suite.model;

import convcert.spi.CaseKind;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of a certification, as data: what every writer (report.JsonReport, HtmlReport,
 * JUnitXmlReport, ConsoleReport, Allure) renders, and what report merge reads back. Its
 * {@link #verdict()} is the gate: the exit code and the console's last line.
 *
 * @param provenance   who made it, when, from what, against which implementation
 * @param documents    the texts the profile restates, each cited with its version (document.csv)
 * @param shard        "K/N" for one shard of an exhaustive run, null otherwise
 * @param partial      the run was interrupted: cases that did not finish are NOT_RUN
 * @param declared     the adapter's capability lines (aliases resolved)
 * @param unmatched    declared lines that match no case of the profile (a typo certifies nothing)
 * @param notes        what a reader must know to trust the numbers (recomputed expectations, ...)
 */
public record ConformanceReport(String tool, Provenance provenance, String adapter, String profile, String tables,
                                Map<String, String> decisions, List<String> documents, String source, String shard,
                                boolean partial,
                                List<String> declared, List<String> unmatched, List<String> notes, Summary summary,
                                List<Entry> cases) {

    public ConformanceReport {
        declared = declared == null ? List.of() : List.copyOf(declared);
        unmatched = unmatched == null ? List.of() : List.copyOf(unmatched);
        notes = notes == null ? List.of() : List.copyOf(notes);
        documents = documents == null ? List.of() : List.copyOf(documents);
    }

    public record Summary(int cases, int passed, int failed, int notApplicable, int adapterErrors, int errors,
                          int waived, int notRun, long vectors, long certifiedVectors, long mismatches,
                          long waivedMismatches, Map<MismatchKind, Long> kinds) {
    }

    /**
     * One case. form and ctrl are the API form and CTRL bits the adapter was asked to use; waiver the
     * waiver that accepted (WAIVED) or no longer accepts (FAIL, expired) the case's mismatches.
     */
    public record Entry(String name, String pair, String from, String to, String rounding, String state, String form,
                        String ctrl, Status status, long vectors, long mismatches, Map<MismatchKind, Long> kinds,
                        List<FirstMismatch> firstMismatches, List<String> rules, String message, String waiver, long millis,
                        Diagnosis diagnosis, Map<String, Long> where, InputMap inputMap) {

        public Entry {
            where = where == null ? Map.of() : where;
        }

        /** Whether the case was asked for in an API form (a conversion; a report read back from an older run may lack it). */
        public boolean hasForm() {
            return form != null && CaseKind.of(state) == CaseKind.CONVERSION;
        }
    }

    /** What the gate says: the process exit code and the console's last line. */
    public record Verdict(ExitCode exit, String line) {

        public int exitCode() {
            return exit.code();
        }
    }

    public static Entry entry(CaseResult r) {
        return new Entry(r.key().name(), r.key().pair(), r.key().from(), r.key().to(), r.key().rounding(),
                r.key().state(), r.key().form(), r.key().ctrlText(), r.status(), r.vectors(), r.mismatches(),
                r.kinds(), r.firstMismatches(), r.rules(), r.message(), r.waiver(), r.millis(), r.diagnosis(),
                r.where(), r.inputMap());
    }

    /** The same report with these cases, sorted by name, and their summary. */
    public ConformanceReport withCases(List<Entry> entries) {
        List<Entry> sorted = entries.stream().sorted(Comparator.comparing(Entry::name)).toList();
        return new ConformanceReport(tool, provenance, adapter, profile, tables, decisions, documents, source, shard, partial,
                declared, unmatched, notes, summarise(sorted), sorted);
    }

    /** The same report marked partial (an interrupted run) or not. */
    public ConformanceReport withPartial(boolean isPartial) {
        return new ConformanceReport(tool, provenance, adapter, profile, tables, decisions, documents, source, shard, isPartial,
                declared, unmatched, notes, summary, cases);
    }

    static Summary summarise(List<Entry> entries) {
        Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        entries.forEach(e -> e.kinds().forEach((k, v) -> kinds.merge(k, v, Long::sum)));
        return new Summary(entries.size(), count(entries, Status.PASS), count(entries, Status.FAIL),
                count(entries, Status.NOT_APPLICABLE), count(entries, Status.ADAPTER_ERROR), count(entries, Status.ERROR),
                count(entries, Status.WAIVED), count(entries, Status.NOT_RUN),
                entries.stream().mapToLong(Entry::vectors).sum(),
                entries.stream().filter(e -> e.status() == Status.PASS).mapToLong(Entry::vectors).sum(),
                entries.stream().filter(e -> e.status() != Status.WAIVED).mapToLong(Entry::mismatches).sum(),
                entries.stream().filter(e -> e.status() == Status.WAIVED).mapToLong(Entry::mismatches).sum(), kinds);
    }

    /** How many of the entries ended with this status. */
    public static int count(List<Entry> entries, Status status) {
        return (int) entries.stream().filter(e -> e.status() == status).count();
    }

    public int exitCode() {
        return verdict().exitCode();
    }

    /**
     * The worst outcome decides: a case that could not run (4), an adapter failure (3), mismatches
     * (1); a run in which no case passed certified nothing (5), whatever else it did. Only then PASS.
     */
    public Verdict verdict() {
        Summary s = summary;
        String certified = String.format(Locale.ROOT, "%d cases, %,d vectors certified", s.passed(), s.certifiedVectors());
        String applicable = String.format(Locale.ROOT, "%d of %d planned cases applicable to the adapter",
                s.cases() - s.notApplicable(), s.cases()) + (declared.isEmpty() ? "" : ", which declares "
                + declared.size() + " capabilities" + (unmatched.isEmpty() ? "" : ", " + unmatched.size() + " matching no case"));
        String waived = s.waived() == 0 ? "" : String.format(Locale.ROOT, "; %d waived cases (%,d mismatches accepted)",
                s.waived(), s.waivedMismatches());
        String head = partial ? "INTERRUPTED (partial report, " + s.notRun() + " cases not run): " : "";
        if (s.errors() > 0) {
            return new Verdict(ExitCode.INTERNAL, head + "FAIL: " + s.errors() + " cases could not run (see their messages); "
                    + certified + waived);
        }
        if (s.adapterErrors() > 0) {
            return new Verdict(ExitCode.ADAPTER_FAILURE, head + "FAIL: the adapter failed on " + s.adapterErrors() + " cases"
                    + (s.failed() > 0 ? " and " + s.failed() + " cases have mismatches" : "") + "; " + certified + waived);
        }
        if (s.failed() > 0) {
            List<String> expired = cases.stream().filter(e -> e.status() == Status.FAIL && e.waiver() != null)
                    .map(Entry::name).toList();
            String expiredText = expired.isEmpty() ? "" : "; the waiver of " + expired.getFirst() + " has expired"
                    + (expired.size() > 1 ? " (and " + (expired.size() - 1) + " more)" : "");
            return new Verdict(ExitCode.MISMATCHES, head + String.format(Locale.ROOT,
                    "FAIL: %d cases with mismatches (%,d vectors differ); ", s.failed(), s.mismatches()) + certified + waived
                    + expiredText);
        }
        if (s.passed() == 0) {
            String why = s.cases() == 0 ? "no case was selected"
                    : s.cases() == s.notApplicable() ? "no selected case applies to the adapter (" + applicable + ")"
                    : s.waived() > 0 && s.waived() + s.notApplicable() + s.notRun() == s.cases() ? "every applicable case was waived"
                    : "no case finished";
            return new Verdict(ExitCode.NOTHING_CERTIFIED, head + "NOTHING CERTIFIED: " + why + waived);
        }
        return new Verdict(ExitCode.PASS, head + (s.waived() == 0 ? "PASS: " : "PASS with " + s.waived() + " waived cases ("
                + String.format(Locale.ROOT, "%,d", s.waivedMismatches()) + " mismatches accepted): ") + certified + " ("
                + applicable + ")");
    }
}
