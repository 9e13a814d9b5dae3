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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * conformance.json: the machine-readable result of a certification, and the model of the HTML
 * report. Shards of one run merge by adding their cases' counts.
 */
public record ConformanceReport(String tool, String adapter, String profile, String tables,
                                Map<String, String> decisions, String source, Summary summary, List<Entry> cases) {

    public static final String FILE = "conformance.json";

    public record Summary(int cases, int passed, int failed, int notApplicable, int adapterErrors, int waived,
                          long vectors, long mismatches, Map<String, Long> kinds) {
    }

    public record Entry(String name, String pair, String from, String to, String rounding, String state, String status,
                        long vectors, long mismatches, Map<String, Long> kinds, List<String> firstMismatches,
                        List<String> rules, String message, long millis) {
    }

    public static ConformanceReport of(String adapter, String profile, String tables, Map<String, String> decisions,
                                       String source, List<CaseResult> results) {
        List<Entry> entries = results.stream().map(r -> new Entry(r.key().name(), r.key().pair(), r.key().from(),
                r.key().to(), r.key().rounding(), r.key().state(), r.status().name(), r.vectors(), r.mismatches(),
                r.kinds(), r.firstMismatches(), r.rules(), r.message(), r.millis())).toList();
        return new ConformanceReport("convcert 0.1.0", adapter, profile, tables, decisions, source, summarise(entries),
                sorted(entries));
    }

    private static List<Entry> sorted(List<Entry> entries) {
        return entries.stream().sorted(Comparator.comparing(Entry::name)).toList();
    }

    static Summary summarise(List<Entry> entries) {
        Map<String, Long> kinds = new LinkedHashMap<>();
        entries.forEach(e -> e.kinds().forEach((k, v) -> kinds.merge(k, v, Long::sum)));
        return new Summary(entries.size(), count(entries, Status.PASS), count(entries, Status.FAIL),
                count(entries, Status.NOT_APPLICABLE), count(entries, Status.ADAPTER_ERROR), count(entries, Status.WAIVED),
                entries.stream().mapToLong(Entry::vectors).sum(), entries.stream().mapToLong(Entry::mismatches).sum(), kinds);
    }

    private static int count(List<Entry> entries, Status status) {
        return (int) entries.stream().filter(e -> e.status().equals(status.name())).count();
    }

    /** The exit code of the gate: 3 adapter failure, 1 mismatches, else 0. */
    public int exitCode() {
        return summary.adapterErrors() > 0 ? 3 : summary.failed() > 0 ? 1 : 0;
    }

    /** Merges shard reports of one run: per case, counts add up and the worst status wins. */
    public static ConformanceReport merge(List<ConformanceReport> shards) {
        Map<String, Entry> merged = new LinkedHashMap<>();
        for (ConformanceReport shard : shards) {
            for (Entry e : shard.cases()) {
                merged.merge(e.name(), e, ConformanceReport::combine);
            }
        }
        ConformanceReport first = shards.getFirst();
        List<Entry> entries = new ArrayList<>(merged.values());
        return new ConformanceReport(first.tool(), first.adapter(), first.profile(), first.tables(), first.decisions(),
                first.source() + " (" + shards.size() + " shards merged)", summarise(entries), sorted(entries));
    }

    private static Entry combine(Entry a, Entry b) {
        Map<String, Long> kinds = new LinkedHashMap<>(a.kinds());
        b.kinds().forEach((k, v) -> kinds.merge(k, v, Long::sum));
        List<String> first = new ArrayList<>(a.firstMismatches());
        first.addAll(b.firstMismatches());
        String status = worst(a.status(), b.status());
        return new Entry(a.name(), a.pair(), a.from(), a.to(), a.rounding(), a.state(), status, a.vectors() + b.vectors(),
                a.mismatches() + b.mismatches(), kinds, first.subList(0, Math.min(first.size(), 20)),
                a.rules().isEmpty() ? b.rules() : a.rules(), a.message() != null ? a.message() : b.message(),
                a.millis() + b.millis());
    }

    private static String worst(String a, String b) {
        List<String> order = List.of("ADAPTER_ERROR", "FAIL", "WAIVED", "PASS", "NOT_APPLICABLE");
        return order.indexOf(a) <= order.indexOf(b) ? a : b;
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
