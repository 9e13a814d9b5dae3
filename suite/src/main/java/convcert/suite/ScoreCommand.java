package convcert.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.cli.ProfileOptions;
import convcert.common.Home;
import convcert.faults.Fault;
import convcert.faults.FaultCatalogue;
import convcert.reference.Reference;
import convcert.spi.CaseKind;
import convcert.suite.model.ExitCode;
import convcert.suite.model.FaultScore;
import convcert.suite.report.ScoreHtml;
import convcert.suite.runner.FaultScoring;
import convcert.suite.runner.VectorStore;
import convcert.vectors.Manifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Path folder = vectors != null ? vectors : Home.vectors();
        VectorStore store = VectorStore.open(folder);
        String name = reference.tables().profile();
        List<Manifest.Entry> entries = store.cases().stream().filter(e -> e.profile().equals(name)
                && e.kind() != CaseKind.MEMORY).toList(); // the faults are of conversions, blocks and tensors
        store.verify(entries, reference, e -> true);
        List<Fault> catalogue = FaultCatalogue.load(faults != null ? faults : Home.faults());
        FaultScore score = FaultScoring.score(reference, store, entries, catalogue);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf("%-28s %-22s %-15s %s%n", "fault", "family", "result", "caught by");
        for (FaultScore.Outcome o : score.faults()) {
            stdout.printf("%-28s %-22s %-15s %s%n", o.id(), o.family(), o.result(), o.caughtBy().isEmpty()
                    ? Objects.requireNonNullElse(o.why(), "") : o.caughtBy().size() + " cases, e.g. "
                    + String.join(", ", o.caughtBy().subList(0, Math.min(3, o.caughtBy().size()))));
        }
        if (out != null) {
            Files.createDirectories(out);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING).writeValue(out.resolve("score.json").toFile(), score);
            Files.writeString(out.resolve("score.html"), ScoreHtml.html(score));
        }
        long na = score.faults().stream().filter(o -> o.result() == FaultScore.Result.NOT_APPLICABLE).count();
        long undetectable = score.faults().stream().filter(o -> o.result() == FaultScore.Result.UNDETECTABLE).count();
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

}
