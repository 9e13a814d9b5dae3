package convcert.suite.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.common.Sha256;
import convcert.common.UsageException;
import convcert.suite.model.ConformanceReport.Entry;
import convcert.suite.model.ConformanceReport.Summary;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.Diagnosis;
import convcert.suite.model.FirstMismatch;
import convcert.suite.model.InputMap;
import convcert.suite.model.MismatchKind;
import convcert.suite.model.Provenance;
import convcert.suite.model.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * conformance.json, written and read back. Each case carries its first mismatches and diagnosis twice:
 * as the lines the other reports show (firstMismatches, diagnosis) and as data (firstMismatchData,
 * diagnosisData, left out when empty), which is what report merge reads. Statuses and mismatch kinds
 * read back only as the values convcert writes (kinds by their labels); anything else is refused. The
 * last field, digest, is the SHA-256 of the file's bytes with that field's value zeroed: a report
 * changed after convcert wrote it (a hand edit) reads back as such and merge refuses it.
 */
public final class JsonReport {

    public static final String FILE = "conformance.json";

    private JsonReport() {
    }

    /** The file's shape: the model with each case as {@link Case}. */
    record Document(String tool, Provenance provenance, String adapter, String profile, String tables,
                Map<String, String> decisions, List<String> documents, String source, String shard, boolean partial, List<String> declared,
                List<String> unmatched, List<String> notes, Summary summary, List<Case> cases, String digest) {
    }

    /** The digest's value while the digest is computed. */
    private static final String UNSIGNED = "0".repeat(64);
    private static final String DIGEST_FIELD = "\"digest\" : \"";

    record Case(String name, String pair, String from, String to, String rounding, String state, String form, String ctrl,
                Status status, long vectors, long mismatches, Map<MismatchKind, Long> kinds, List<String> firstMismatches,
                List<String> rules, String message, String waiver, long millis, String diagnosis, Map<String, Long> where,
                @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FirstMismatch> firstMismatchData,
                @JsonInclude(JsonInclude.Include.NON_NULL) Diagnosis diagnosisData,
                @JsonInclude(JsonInclude.Include.NON_NULL) InputMap inputMap) {
    }

    /** How the sealed FirstMismatch is told apart in the file: a "type" field. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({@JsonSubTypes.Type(value = FirstMismatch.Value.class, name = "value"),
            @JsonSubTypes.Type(value = FirstMismatch.Flags.class, name = "flags"),
            @JsonSubTypes.Type(value = FirstMismatch.Block.class, name = "block"),
            @JsonSubTypes.Type(value = FirstMismatch.Memory.class, name = "memory")})
    private interface FirstMismatchTypes {
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING) // kinds by label, statuses by name
                .enable(DeserializationFeature.READ_ENUMS_USING_TO_STRING)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .addMixIn(FirstMismatch.class, FirstMismatchTypes.class);
    }

    public static void write(ConformanceReport r, Path folder) throws IOException {
        Files.createDirectories(folder);
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        Path temp = folder.resolve("." + FILE + ".partial");
        String text = new String(mapper().writer(printer).writeValueAsBytes(document(r)), StandardCharsets.UTF_8);
        int at = text.lastIndexOf(DIGEST_FIELD + UNSIGNED) + DIGEST_FIELD.length();
        String digest = Sha256.of(text.getBytes(StandardCharsets.UTF_8));
        Files.writeString(temp, text.substring(0, at) + digest + text.substring(at + UNSIGNED.length()), StandardCharsets.UTF_8);
        Files.move(temp, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Document document(ConformanceReport r) {
        return new Document(r.tool(), r.provenance(), r.adapter(), r.profile(), r.tables(), r.decisions(), r.documents(),
                r.source(), r.shard(),
                r.partial(), r.declared(), r.unmatched(), r.notes(), r.summary(), r.cases().stream().map(e -> new Case(
                e.name(), e.pair(), e.from(), e.to(), e.rounding(), e.state(), e.form(), e.ctrl(), e.status(), e.vectors(),
                e.mismatches(), e.kinds(), ReportText.lines(e.firstMismatches()), e.rules(), e.message(), e.waiver(),
                e.millis(), ReportText.diagnosis(e.diagnosis()), e.where(), e.firstMismatches(), e.diagnosis(),
                e.inputMap())).toList(),
                UNSIGNED);
    }

    /**
     * Reads a report back into the model. Malformed JSON, a status or kind convcert never writes, or a
     * case whose mismatches or diagnosis are there only as text (an older convcert's) is a usage error
     * naming the file.
     */
    public static ConformanceReport read(Path path) {
        Document f;
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
            f = mapper().readValue(text, Document.class);
        } catch (IOException e) {
            throw new UsageException(path + ": not a conformance report: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (f.digest() == null) {
            throw new UsageException(path + ": the report has no digest (written by an older convcert); rerun it");
        }
        int at = text.lastIndexOf(DIGEST_FIELD + f.digest());
        String zeroed = at < 0 ? "" : text.substring(0, at + DIGEST_FIELD.length()) + UNSIGNED
                + text.substring(at + DIGEST_FIELD.length() + f.digest().length());
        if (at < 0 || !Sha256.of(zeroed.getBytes(StandardCharsets.UTF_8)).equals(f.digest())) {
            throw new UsageException(path + ": the report's digest does not match its content: it was changed after "
                    + "convcert wrote it");
        }
        List<Entry> entries = f.cases() == null ? List.of() : f.cases().stream().map(c -> entry(path, c)).toList();
        return new ConformanceReport(f.tool(), f.provenance(), f.adapter(), f.profile(), f.tables(),
                f.decisions() == null ? Map.of() : f.decisions(), f.documents(), f.source(), f.shard(), f.partial(), f.declared(),
                f.unmatched(), f.notes(), null, List.of()).withCases(entries);
    }

    private static Entry entry(Path path, Case c) {
        List<FirstMismatch> first = c.firstMismatchData() == null ? List.of() : c.firstMismatchData();
        boolean textOnly = (c.firstMismatches() != null && c.firstMismatches().size() != first.size())
                || (c.diagnosis() != null && c.diagnosisData() == null);
        if (c.status() == null || c.name() == null || textOnly) {
            throw new UsageException(path + ": case " + c.name() + (c.status() == null ? " has no status"
                    : c.name() == null ? " has no name" : " keeps its mismatches only as text (written by an older convcert); rerun it"));
        }
        return new Entry(c.name(), c.pair(), c.from(), c.to(), c.rounding(), c.state(), c.form(), c.ctrl(), c.status(),
                c.vectors(), c.mismatches(), c.kinds() == null ? Map.of() : c.kinds(), first,
                c.rules() == null ? List.of() : c.rules(), c.message(), c.waiver(), c.millis(), c.diagnosisData(), c.where(),
                c.inputMap());
    }
}
