package convcert.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.cli.ProfileOptions;
import convcert.common.Home;
import convcert.common.WorkingDirectory;
import convcert.faults.Fault;
import convcert.faults.FaultCatalogue;
import convcert.faults.FaultModel;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spi.CaseKind;
import convcert.suite.model.ExitCode;
import convcert.suite.report.Markup;
import convcert.suite.runner.Comparison;
import convcert.suite.runner.VectorStore;
import convcert.vectors.Manifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * convcert score: how many of the fault catalogue's bugs a vector set catches. Every applicable fault
 * runs over every case's inputs; a fault is caught when some output differs from the expected value
 * (NaNs compared as certification compares them).
 */
@Command(name = "score", mixinStandardHelpOptions = true,
        header = "Score a golden-vector set against the fault catalogue.",
        description = "Per fault of the catalogue (spec-tables/faults.csv): caught (by which cases) or escaped; "
                + "then 'fault score: CAUGHT/TOTAL'. Exit 0 when every detectable applicable fault is caught, "
                + "1 otherwise, 5 when nothing was scored (no fault applies to the vector set's cases).")
public final class ScoreCommand implements Callable<Integer> {

    @Mixin
    ProfileOptions profile;

    @Option(names = "--vectors", paramLabel = "DIR", description = "Golden vectors (default: vectors/ of the repository).")
    Path vectors;

    @Option(names = "--faults", paramLabel = "CSV", description = "Fault catalogue (default: spec-tables/faults.csv).")
    Path faults;

    @Option(names = "--out", paramLabel = "DIR", description = "Also write score.json there.")
    Path out;

    @Spec
    CommandSpec spec;

    /**
     * One fault's outcome: caught by which cases, or escaped, or not applicable to this set (why: the
     * cases its catalogue row applies to, none of which the set has).
     */
    public record Outcome(String id, String family, String description, boolean detectable, String result,
                          List<String> caughtBy, int casesTried, String why) {
    }

    public record Score(String profile, String vectors, int caught, int total, List<Outcome> faults) {
    }

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Path folder = vectors != null ? vectors : Home.vectors();
        VectorStore store = VectorStore.open(folder);
        String name = reference.tables().profile();
        List<Manifest.Entry> entries = store.cases().stream().filter(e -> e.profile().equals(name)
                && e.kind() == CaseKind.CONVERSION).toList(); // the faults are of conversions
        store.verify(entries, reference, e -> true);
        List<Fault> catalogue = FaultCatalogue.load(faults != null ? faults : Home.faults());
        Score score = score(reference, store, entries, catalogue);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf("%-28s %-22s %-15s %s%n", "fault", "family", "result", "caught by");
        for (Outcome o : score.faults()) {
            stdout.printf("%-28s %-22s %-15s %s%n", o.id(), o.family(), o.result(), o.caughtBy().isEmpty()
                    ? Objects.requireNonNullElse(o.why(), "") : o.caughtBy().size() + " cases, e.g. "
                    + String.join(", ", o.caughtBy().subList(0, Math.min(3, o.caughtBy().size()))));
        }
        if (out != null) {
            Files.createDirectories(out);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("score.json").toFile(), score);
            Files.writeString(out.resolve("score.html"), html(score));
        }
        long na = score.faults().stream().filter(o -> o.result().equals("not applicable")).count();
        long undetectable = score.faults().stream().filter(o -> o.result().startsWith("undetectable")).count();
        String other = store.otherProfiles(name);
        if (other != null) {
            stdout.println("note: " + other + " (--profile selects the profile)");
        }
        stdout.printf("fault score: %d/%d (%d not applicable to this vector set, %d undetectable by design)%n",
                score.caught(), score.total(), na, undetectable);
        if (score.total() == 0) {
            stdout.println("NOTHING SCORED: no fault applies to a case of this vector set");
            return ExitCode.NOTHING_CERTIFIED.code();
        }
        return score.caught() == score.total() ? 0 : 1;
    }

    /** score.html: one self-contained page, a row per fault, escaped like the certification report. */
    static String html(Score s) {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>convcert "
                + "fault score</title><style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:"
                + "collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}th{background:#f4f4f4;"
                + "text-align:left}.caught{color:#2e7d32}.ESCAPED{color:#c62828;font-weight:bold}.na,.undetectable"
                + "{color:#757575}</style></head><body>\n");
        h.append("<h1>Fault score ").append(s.caught()).append("/").append(s.total()).append("</h1>\n<p>Profile <code>")
                .append(esc(s.profile())).append("</code>, vectors <code>").append(esc(s.vectors())).append("</code></p>\n")
                .append("<table><tr><th>fault</th><th>family</th><th>result</th><th>caught by</th><th>what it is</th></tr>\n");
        for (Outcome o : s.faults()) {
            String css = o.result().equals("not applicable") ? "na" : o.result();
            h.append("<tr><td><code>").append(esc(o.id())).append("</code></td><td>").append(esc(o.family()))
                    .append("</td><td class=\"").append(css).append("\">").append(esc(o.result())).append("</td><td>")
                    .append(o.caughtBy().size() > 0 ? o.caughtBy().size() + " cases: " + esc(String.join(", ",
                            o.caughtBy().subList(0, Math.min(5, o.caughtBy().size())))) + (o.caughtBy().size() > 5 ? ", ..." : "")
                            : esc(o.why())).append("</td><td>").append(esc(o.description())).append("</td></tr>\n");
        }
        return h.append("</table>\n</body></html>\n").toString();
    }

    private static String esc(String s) {
        return Markup.escape(s, true);
    }

    public static Score score(Reference reference, VectorStore store, List<Manifest.Entry> entries, List<Fault> catalogue) {
        FaultModel model = new FaultModel(reference);
        Comparison comparison = Comparison.of(reference);
        Map<String, long[][]> files = new LinkedHashMap<>();
        List<Outcome> outcomes = new ArrayList<>();
        int caught = 0;
        int total = 0;
        for (Fault f : catalogue) {
            List<String> by = new ArrayList<>();
            int tried = 0;
            boolean admitted = false;
            for (Manifest.Entry e : entries) {
                Conversion c = reference.conversion(e.from(), e.to());
                List<Manifest.Variant> variants = VectorStore.variants(e);
                for (int i = 0; i < (f.mechanism().equals("control") ? variants.size() : 1); i++) {
                    Case state = reference.resolve(VectorStore.key(e, i));
                    admitted |= model.applies(f, state);
                    FaultModel.Implementation wrong = model.implementation(f, state);
                    if (wrong == null) {
                        continue;
                    }
                    tried++;
                    Converter right = reference.converter(state);
                    // operands: a lane case's values with their random bits or scales, as the faults convert them
                    long[][] io = files.computeIfAbsent(e.name(), n -> new long[][] {
                        store.readOperands(e, right), store.read(e, false, c.to().width())});
                    FormatCodec dst = right.destination();
                    FaultModel.FlagsImplementation wrongFlags = model.flags(f, state);
                    if (wrongFlags != null ? flagsDiffer(wrongFlags, right.flags(), io) : differs(wrong, io, dst, comparison)) {
                        by.add(VectorStore.key(e, i).name());
                        break;
                    }
                }
            }
            String result;
            String why = null;
            if (tried == 0) {
                result = "not applicable";
                why = admitted ? model.whyInert(f) + " (" + f.location() + ")"
                        : "applies to " + String.join(" ", f.applies()) + " cases (" + f.location() + "); this set has none";
            } else if (!by.isEmpty()) {
                result = "caught";
            } else {
                result = f.detectable() ? "ESCAPED" : "undetectable";
            }
            if (tried > 0 && (f.detectable() || !by.isEmpty())) {
                total++;
                caught += by.isEmpty() ? 0 : 1;
            }
            outcomes.add(new Outcome(f.id(), f.family(), f.description(), f.detectable(), result, by, tried, why));
        }
        return new Score(reference.tables().profile(), WorkingDirectory.relative(store.folder()).toString(), caught,
                total, outcomes);
    }

    /** A flags fault's flags against the right ones, on the right results (its results are right). */
    private static boolean flagsDiffer(FaultModel.FlagsImplementation wrong, Flags right, long[][] io) {
        for (int k = 0; k < io[0].length; k++) {
            if (wrong.of(io[0][k], io[1][k]) != right.of(io[0][k], io[1][k])) {
                return true;
            }
        }
        return false;
    }

    private static boolean differs(FaultModel.Implementation wrong, long[][] io, FormatCodec dst, Comparison comparison) {
        for (int k = 0; k < io[0].length; k++) {
            if (!comparison.same(dst, io[1][k], wrong.apply(io[0][k]))) {
                return true;
            }
        }
        return false;
    }
}
