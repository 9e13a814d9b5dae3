package convcert.suite;

import convcert.cli.CaseOptions;
import convcert.cli.GenerationOption;
import convcert.cli.ProfileOptions;
import convcert.common.UsageException;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.reference.Values;
import convcert.suite.model.ExitCode;
import convcert.suite.prove.Miter;
import convcert.suite.prove.Ports;
import convcert.suite.prove.Proof;
import convcert.suite.prove.Settings;
import convcert.suite.prove.Prover;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert prove: a combinational converter in Verilog proven equal to a case of the reference for every input. */
@Command(name = "prove", mixinStandardHelpOptions = true,
        header = "Prove a combinational RTL converter equal to the reference for every input of a case.",
        description = "Builds a miter of the design and the case's reference model (convcert model) and proves it with two "
                + "engines, Yosys' SAT solver and ABC's iprove; a proof counts only when both agree. Exit 0: proven; 1: "
                + "refuted, with a counterexample written as golden vectors; 2: a usage error; 4: the engines disagree or "
                + "could not finish.")
public final class ProveCommand implements Callable<Integer> {

    @Mixin
    CaseOptions conversion;

    @Mixin
    ProfileOptions profile;

    @Option(names = "--rtl", required = true, paramLabel = "FILE",
            description = "The design's Verilog or SystemVerilog files (repeatable).")
    List<Path> rtl;

    @Option(names = "--top", required = true, paramLabel = "MODULE", description = "The design's module.")
    String top;

    @Option(names = "--input", defaultValue = "in", paramLabel = "PORT", description = "Its input port (default: ${DEFAULT-VALUE}).")
    String input;

    @Option(names = "--output", defaultValue = "out", paramLabel = "PORT",
            description = "Its output port; its low bits, the destination's width, are compared (default: ${DEFAULT-VALUE}).")
    String output;

    @Option(names = "--set", paramLabel = "PORT=VALUE", description = "Drive another input port with a constant: the case's "
            + "mode, form or CTRL bits as the design encodes them, e.g. --set mode=0 (repeatable).")
    List<String> sets = List.of();

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Set a parameter of the design's module, e.g. "
            + "--param E5M2=1 (repeatable).")
    List<String> params = List.of();

    @Option(names = "--define", paramLabel = "NAME[=VALUE]", description = "A Verilog define for the design's files (repeatable).")
    List<String> defines = List.of();

    @Option(names = "--out", paramLabel = "DIR", description = "Where the model, the miter, the engines' logs and a "
            + "counterexample go (default: reports/prove/<the case's path>).")
    Path out;

    @Mixin
    GenerationOption generation;

    @Option(names = "--smt", split = ",", paramLabel = "SOLVER", description = "An SMT solver that must also agree, on the "
            + "miter in SMT-LIB as Yosys writes it before bit-blasting: cvc5 (default: none; Yosys' SAT and ABC decide).")
    List<String> smt = List.of();

    @Option(names = "--timeout-s", defaultValue = "600", paramLabel = "S", description = "Each engine's limit (default: ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--counterexamples", defaultValue = "" + Settings.COUNTEREXAMPLES, paramLabel = "N", description = "How many "
            + "counterexamples a refutation seeks, each after the first one more SAT run (default: ${DEFAULT-VALUE}: enough "
            + "to tell apart the faults one input leaves open).")
    int counterexamples;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Reference reference = profile.reference();
        Case c = conversion.resolve(reference);
        Converter converter = reference.converter(c);
        for (Path file : rtl) {
            if (!Files.isRegularFile(file)) {
                throw new UsageException("--rtl " + file + ": no such file");
            }
        }
        Miter miter = new Miter(top, input, output, numbers("--set", sets), numbers("--param", params));
        String path = reference.names().id(c, "").path();
        Path folder = out != null ? out : Path.of("reports", "prove").resolve(path);
        Settings settings = settings(reference);
        Files.createDirectories(folder);
        List<String> free = Ports.inspect(folder, rtl, defines, top, timeout).check(miter, converter);
        Proof proof = Prover.prove(folder, rtl, defines, miter, converter, settings, free);
        PrintWriter o = spec.commandLine().getOut();
        o.println("case     " + c.describe() + " (profile " + reference.tables().profile() + ")");
        o.println("design   " + top + " (" + String.join(" ", rtl.stream().map(Path::toString).toList()) + ")");
        for (String port : free) {
            o.println("free     " + port + " (no --set drives it: every value of it is checked)");
        }
        for (Proof.Engine e : proof.engines()) {
            o.printf("engine   %-40s %-9s %6.2f s  %s%n", e.name(), e.verdict(), e.seconds(), e.said());
        }
        if (proof.counterexample() != null && proof.verdict() == Proof.Verdict.REFUTED) {
            refuted(o, proof, reference, c, converter, folder);
        }
        String inputs = "2^" + converter.source().format().width() + " inputs";
        String engines = proof.engines().size() == 2 ? "(both engines)" : "(all " + proof.engines().size() + " engines)";
        o.println(switch (proof.verdict()) {
            case PROVEN -> "PROVEN: equal to the reference for all " + inputs + " " + engines;
            case REFUTED -> "REFUTED: the design differs from the reference " + engines;
            case UNDECIDED -> "UNDECIDED: " + String.join("; ", undecidedBecause(proof, converter)) + "; no verdict (logs in "
                    + folder + ")";
        });
        o.flush();
        return switch (proof.verdict()) {
            case PROVEN -> ExitCode.PASS.code();
            case REFUTED -> ExitCode.MISMATCHES.code();
            case UNDECIDED -> ExitCode.INTERNAL.code();
        };
    }

    /** Why there is no verdict: the engines' reasons, or their model, which the reference converts alike. */
    private static List<String> undecidedBecause(Proof proof, Converter converter) {
        List<String> why = proof.undecidedBecause();
        Proof.Counterexample x = proof.counterexample();
        if (!why.isEmpty() || x == null) {
            return why.isEmpty() ? List.of("no engine gave a verdict") : why;
        }
        return List.of("the engines' model is no counterexample: input " + Values.describe(converter.source(), x.input())
                + ", the design gives " + Values.describe(converter.destination(), x.actual()) + " and the reference "
                + Values.describe(converter.destination(), x.expected()) + ", equal as certification compares results");
    }

    /** The --smt and --counterexamples options, checked, with the profile's NaN comparison and the generation. */
    private Settings settings(Reference reference) {
        boolean anyNaN = reference.semantics().get(Semantics.NAN_COMPARISON) == Semantics.NanComparison.ANY;
        if (counterexamples < 1) {
            throw new UsageException("--counterexamples " + counterexamples + ": at least 1");
        }
        for (String solver : smt) {
            if (!Settings.SOLVERS.contains(solver)) {
                throw new UsageException("--smt " + solver + ": not one of " + String.join(", ", Settings.SOLVERS));
            }
        }
        return new Settings(generation.generation, anyNaN, smt, timeout, counterexamples);
    }

    /** A refutation: the counterexample, its golden vectors, and the finding certified as a recording of the design. */
    private void refuted(PrintWriter o, Proof proof, Reference reference, Case c, Converter converter, Path folder)
            throws IOException, InterruptedException {
        Proof.Counterexample x = proof.counterexample();
        o.println("counterexample: input " + Values.describe(converter.source(), x.input()) + ": expected "
                + Values.describe(converter.destination(), x.expected()) + ", actual " + (x.undefined()
                ? "X (undefined bits, any value; the engines chose " + Values.describe(converter.destination(), x.actual()) + ")"
                : Values.describe(converter.destination(), x.actual())));
        o.println("golden vectors: " + proof.counterexamples().size() + " counterexamples (the engines' first, then more "
                + "with those before excluded) in " + folder.resolve("counterexample.in.memh") + ", "
                + folder.resolve("counterexample.expected.memh"));
        // the finding through certify's own path: mismatch line, kind, diagnosis, HTML, JUnit and JSON reports
        List<Proof.Counterexample> vectors = Prover.withCiVectors(folder, rtl, defines, reference, converter,
                proof.counterexamples(), timeout);
        Prover.writeFinding(folder, reference, c, vectors == null ? proof.counterexamples() : vectors,
                proof.counterexamples().size());
        o.println(vectors == null ? "the counterexamples (Yosys could not evaluate the design on the ci inputs: "
                + folder.resolve("evaluate.log") + "), certified as a recording of the design:"
                : "the counterexamples and the case's " + (vectors.size() - proof.counterexamples().size())
                + " ci inputs evaluated on the design (Yosys eval), certified as a recording of the design:");
        o.flush();
        new Certification(CertificationRequest.ofVectors(reference, "replay:dir=" + folder.resolve("recording"),
                folder.resolve("vectors"), folder.resolve("report")), o, spec.commandLine().getErr()).run();
    }

    /** NAME=VALUE words of an option, each value a number (decimal or 0x hex). */
    private static Map<String, Long> numbers(String option, List<String> words) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (String s : words) {
            String[] parts = s.split("=", 2);
            if (parts.length != 2) {
                throw new UsageException(option + " '" + s + "': expected NAME=VALUE, e.g. " + option + " mode=0");
            }
            String v = parts[1].strip();
            try {
                map.put(parts[0].strip(), v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseUnsignedLong(v));
            } catch (NumberFormatException e) {
                throw new UsageException(option + " '" + s + "': the value is not a number (decimal or 0x hex)");
            }
        }
        return map;
    }
}
