package convcert.suite;

import convcert.common.UsageException;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.ExitCode;
import convcert.suite.report.ConsoleReport;
import convcert.suite.report.JsonReport;
import convcert.suite.report.RunReports;
import convcert.suite.report.ShardMerge;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** convcert report merge: combine the reports of shards (or CI matrix jobs) into one. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Work with certification reports.",
        subcommands = ReportCommand.Merge.class)
public final class ReportCommand {

    @Command(name = "merge", mixinStandardHelpOptions = true,
            header = "Merge shard or matrix reports into one report and one verdict.",
            description = "Merges the conformance.json of several report folders into one report: every shard K/N "
                    + "of one --exhaustive run exactly once, or runs of different cases (a CI matrix by pair). "
                    + "Refuses reports of different implementations, profiles, tables, decisions, vectors or convcert "
                    + "builds (unless --allow-mixed-builds), and "
                    + "partial reports. Allure result folders merge as they are: point allure at all of them.")
    static final class Merge implements Callable<Integer> {

        @Parameters(paramLabel = "DIR", arity = "1..*", description = "Report folders, each with conformance.json.")
        List<Path> folders;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder for the merged report.")
        Path out;

        @Option(names = "--allow-mixed-builds", description = "Merge reports written by different convcert builds "
                + "(version or commit); each build is named in the merged report. Refused otherwise.")
        boolean mixedBuilds;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            List<ConformanceReport> reports = new ArrayList<>();
            for (Path f : folders) {
                Path file = f.resolve(JsonReport.FILE);
                if (!Files.isRegularFile(file)) {
                    throw new UsageException("no " + JsonReport.FILE + " in " + f);
                }
                reports.add(JsonReport.read(file));
            }
            ConformanceReport merged = ShardMerge.merge(folders, reports, mixedBuilds);
            RunReports folder = RunReports.claim(out);
            try {
                folder.supersede();
                folder.finish(merged);
            } catch (RunReports.NotWritten e) {
                spec.commandLine().getErr().println("convcert: " + e.getMessage() + "; nothing is merged");
                return ExitCode.INTERNAL.code();
            } finally {
                folder.release();
            }
            var stdout = spec.commandLine().getOut();
            ConsoleReport.print(merged, stdout, null, List.of());
            ConformanceReport.Verdict verdict = merged.verdict();
            stdout.println(verdict.line());
            return verdict.exitCode();
        }
    }
}
