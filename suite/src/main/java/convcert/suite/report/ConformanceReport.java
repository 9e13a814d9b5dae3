package convcert.suite.report;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.suite.runner.CaseResult;
import convcert.suite.runner.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * conformance.json: the machine-readable result of a certification, and the model of the HTML and
 * JUnit reports. Its {@link #verdict()} is the gate: the exit code and the console's last line.
 *
 * @param provenance   who made it, when, from what, against which implementation
 * @param shard        "K/N" for one shard of an exhaustive run, null otherwise
 * @param partial      the run was interrupted: cases that did not finish are NOT_RUN
 * @param declared     the adapter's capability lines (aliases resolved)
 * @param unmatched    declared lines that match no case of the profile (a typo certifies nothing)
 * @param notes        what a reader must know to trust the numbers (recomputed expectations, ...)
 */
public record ConformanceReport(String tool, Provenance provenance, String adapter, String profile, String tables,
                                Map<String, String> decisions, String source, String shard, boolean partial,
                                List<String> declared, List<String> unmatched, List<String> notes, Summary summary,
                                List<Entry> cases) {

    public static final String FILE = "conformance.json";

    /** Exit codes of the gate (README, ADAPTERS.md). */
    public static final int PASS = 0;
    public static final int MISMATCHES = 1;
    public static final int USAGE = 2;
    public static final int ADAPTER_FAILURE = 3;
    public static final int INTERNAL = 4;
    public static final int NOTHING_CERTIFIED = 5;

    public ConformanceReport {
        declared = declared == null ? List.of() : List.copyOf(declared);
        unmatched = unmatched == null ? List.of() : List.copyOf(unmatched);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public record Summary(int cases, int passed, int failed, int notApplicable, int adapterErrors, int errors,
                          int waived, int notRun, long vectors, long certifiedVectors, long mismatches,
                          long waivedMismatches, Map<String, Long> kinds) {
    }

    /**
     * One case. form and ctrl are the API form and CTRL bits the adapter was asked to use; waiver the
     * waiver that accepted (WAIVED) or no longer accepts (FAIL, expired) the case's mismatches.
     */
    public record Entry(String name, String pair, String from, String to, String rounding, String state, String form,
                        String ctrl, String status, long vectors, long mismatches, Map<String, Long> kinds,
                        List<String> firstMismatches, List<String> rules, String message, String waiver, long millis,
                        String diagnosis, Map<String, Long> where) {

        public Entry {
            where = where == null ? Map.of() : where;
        }
    }

    /** What the gate says: the process exit code and the console's last line. */
    public record Verdict(int exitCode, String line) {
    }

    public static Entry entry(CaseResult r) {
        return new Entry(r.key().name(), r.key().pair(), r.key().from(), r.key().to(), r.key().rounding(),
                r.key().state(), r.key().form(), r.key().ctrlText(), r.status().name(), r.vectors(), r.mismatches(),
                r.kinds(), r.firstMismatches(), r.rules(), r.message(), r.waiver(), r.millis(), r.diagnosis(),
                r.where());
    }

    public ConformanceReport withCases(List<Entry> entries) {
        List<Entry> sorted = entries.stream().sorted(Comparator.comparing(Entry::name)).toList();
        return new ConformanceReport(tool, provenance, adapter, profile, tables, decisions, source, shard, partial,
                declared, unmatched, notes, summarise(sorted), sorted);
    }

    static Summary summarise(List<Entry> entries) {
        Map<String, Long> kinds = new LinkedHashMap<>();
        entries.forEach(e -> e.kinds().forEach((k, v) -> kinds.merge(k, v, Long::sum)));
        return new Summary(entries.size(), count(entries, Status.PASS), count(entries, Status.FAIL),
                count(entries, Status.NOT_APPLICABLE), count(entries, Status.ADAPTER_ERROR), count(entries, Status.ERROR),
                count(entries, Status.WAIVED), count(entries, Status.NOT_RUN),
                entries.stream().mapToLong(Entry::vectors).sum(),
                entries.stream().filter(e -> e.status().equals("PASS")).mapToLong(Entry::vectors).sum(),
                entries.stream().filter(e -> !e.status().equals("WAIVED")).mapToLong(Entry::mismatches).sum(),
                entries.stream().filter(e -> e.status().equals("WAIVED")).mapToLong(Entry::mismatches).sum(), kinds);
    }

    private static int count(List<Entry> entries, Status status) {
        return (int) entries.stream().filter(e -> e.status().equals(status.name())).count();
    }

    /** The worse of two statuses, for merging shards and folding variants: an error hides nothing. */
    public static String worst(String a, String b) {
        List<String> order = List.of("ERROR", "ADAPTER_ERROR", "FAIL", "NOT_RUN", "WAIVED", "PASS", "NOT_APPLICABLE");
        return order.indexOf(a) <= order.indexOf(b) ? a : b;
    }

    /** The fault id(s) a diagnosis names, "partial: ID" for a best partial one, or "unexplained". */
    public static String cause(String diagnosis) {
        if (diagnosis == null) {
            return "unexplained";
        }
        if (diagnosis.startsWith("best partial explanation: ")) {
            return "partial: " + diagnosis.substring("best partial explanation: ".length()).split(" ")[0];
        }
        String names = diagnosis.substring(diagnosis.indexOf("are explained by: ") + "are explained by: ".length());
        return String.join(" or ", java.util.Arrays.stream(names.split("; or ")).map(n -> n.split(" ")[0]).toList());
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
            return new Verdict(INTERNAL, head + "FAIL: " + s.errors() + " cases could not run (see their messages); "
                    + certified + waived);
        }
        if (s.adapterErrors() > 0) {
            return new Verdict(ADAPTER_FAILURE, head + "FAIL: the adapter failed on " + s.adapterErrors() + " cases"
                    + (s.failed() > 0 ? " and " + s.failed() + " cases have mismatches" : "") + "; " + certified + waived);
        }
        if (s.failed() > 0) {
            return new Verdict(MISMATCHES, head + String.format(Locale.ROOT, "FAIL: %d cases with mismatches (%,d vectors differ); ",
                    s.failed(), s.mismatches()) + certified + waived);
        }
        if (s.passed() == 0) {
            String why = s.cases() == 0 ? "no case was selected"
                    : s.cases() == s.notApplicable() ? "no selected case applies to the adapter (" + applicable + ")"
                    : s.waived() > 0 && s.waived() + s.notApplicable() + s.notRun() == s.cases() ? "every applicable case was waived"
                    : "no case finished";
            return new Verdict(NOTHING_CERTIFIED, head + "NOTHING CERTIFIED: " + why + waived);
        }
        return new Verdict(PASS, head + (s.waived() == 0 ? "PASS: " : "PASS with " + s.waived() + " waived cases ("
                + String.format(Locale.ROOT, "%,d", s.waivedMismatches()) + " mismatches accepted): ") + certified + " ("
                + applicable + ")");
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public static ConformanceReport read(Path file) throws IOException {
        return mapper().readValue(file.toFile(), ConformanceReport.class);
    }

    public void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        Path temp = folder.resolve("." + FILE + ".partial");
        Files.write(temp, mapper().writer(printer).writeValueAsBytes(this));
        Files.move(temp, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
