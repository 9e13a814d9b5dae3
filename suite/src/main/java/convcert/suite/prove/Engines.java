package convcert.suite.prove;

import convcert.common.UsageException;
import convcert.reference.Converter;
import convcert.suite.prove.Proof.Counterexample;
import convcert.suite.prove.Proof.Engine;
import convcert.suite.prove.Proof.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engines that must agree: Yosys' SAT solver on the miter (`sat -prove`, which also gives the
 * counterexample) and ABC's `iprove` (SAT sweeping, a different solver and method) on the same netlist written as
 * AIGER, and, when asked, SMT solvers on the netlist as Yosys writes it in SMT-LIB before bit-blasting (words,
 * adders and comparators as bit-vector terms). Yosys reads the design and the model once; every engine then
 * sees the same netlist.
 */
final class Engines {

    /** A row of sat's table: the signal, its decimal and hex (or "--" when wide), and its bits, read from the bits. */
    private static final Pattern SIGNAL = Pattern.compile("^\\s*\\\\(\\S+)\\s+\\S+\\s+\\S+\\s+([01]+)\\s*$", Pattern.MULTILINE);

    /** An SMT solver's memory: a third of a 24 GiB machine. */
    private static final long SMT_MEMORY_KB = 8L << 20;

    private Engines() {
    }

    /** Runs both engines in folder, which holds model.sv and miter.sv; the design's files and defines as given. */
    static Proof run(Path folder, List<Path> design, List<String> defines, Converter converter, List<String> smtSolvers,
                     long timeoutSeconds) throws IOException, InterruptedException {
        List<Engine> engines = new ArrayList<>();
        long start = System.nanoTime();
        String sat = yosys(folder, design, defines, "miter.sv", true, !smtSolvers.isEmpty(), timeoutSeconds);
        double yosysSeconds = (System.nanoTime() - start) / 1e9;
        Verdict first = sat.contains("SUCCESS!") ? Verdict.PROVEN : sat.contains("FAIL!") ? Verdict.REFUTED : Verdict.UNDECIDED;
        engines.add(new Engine("yosys sat (" + version("yosys", "-V") + ")", first, yosysSeconds,
                first == Verdict.PROVEN ? "no model found" : first == Verdict.REFUTED ? "model found"
                        : sat.isEmpty() ? "timed out after " + timeoutSeconds + " s" : "no verdict in sat.log"));
        start = System.nanoTime();
        Run abc = run(folder, "yosys-abc.out", timeoutSeconds, "yosys-abc", "-c", "read_aiger miter.aig; strash; iprove");
        double abcSeconds = (System.nanoTime() - start) / 1e9;
        Verdict second = abc.output().contains("UNSATISFIABLE") ? Verdict.PROVEN
                : abc.output().contains("SATISFIABLE") ? Verdict.REFUTED : Verdict.UNDECIDED;
        engines.add(new Engine("abc iprove (yosys-abc)", second, abcSeconds, lastLine(abc.output())));
        for (String solver : smtSolvers) {
            engines.add(smt(folder, solver, timeoutSeconds));
        }
        Counterexample counterexample = first == Verdict.REFUTED ? counterexample(sat, converter) : null;
        return new Proof(Proof.combined(engines), engines, counterexample == null ? List.of() : List.of(counterexample));
    }

    /** Yosys' SAT solver alone on another miter (one that excludes inputs found before): its counterexample, or null. */
    static Counterexample another(Path folder, List<Path> design, List<String> defines, String miter, Converter converter,
                                  long timeoutSeconds) throws IOException, InterruptedException {
        String sat = yosys(folder, design, defines, miter, false, false, timeoutSeconds);
        return sat.contains("FAIL!") ? counterexample(sat, converter) : null;
    }

    /** An eval result: the signal's bits, with x or z where the design leaves one undefined. */
    private static final Pattern EVAL = Pattern.compile("Eval result: \\\\design_out = \\d+'([01xz]+)\\.");

    /**
     * The design's outputs for these inputs, through the miter's design side in Yosys' evaluator (eval), undefined
     * bits left as they are: an output with an x or z bit is -1 (no value of any format). Null where Yosys could
     * not evaluate them.
     */
    static long[] evaluate(Path folder, List<Path> design, List<String> defines, int inputBits, long[] inputs,
                           long timeoutSeconds) throws IOException, InterruptedException {
        StringBuilder script = readDesign(design, defines);
        script.append("\nread_verilog -sv model.sv miter.sv\nhierarchy -check -top ").append(Miter.MODULE)
                .append("\nproc; flatten; opt_clean\n");
        for (long x : inputs) {
            script.append("eval -set in ").append(inputBits).append("'h").append(Long.toHexString(x)).append(" -show design_out\n");
        }
        Files.writeString(folder.resolve("evaluate.ys"), script);
        Run yosys = run(folder, "evaluate.out", timeoutSeconds, "yosys", "-q", "-l", "evaluate.log", "-s", "evaluate.ys");
        if (yosys.exit() != 0) {
            return null;
        }
        Matcher m = EVAL.matcher(Files.readString(folder.resolve("evaluate.log")));
        long[] outputs = new long[inputs.length];
        int n = 0;
        while (m.find() && n < outputs.length) {
            String bits = m.group(1);
            outputs[n++] = bits.matches("[01]+") ? Long.parseUnsignedLong(bits, 2) : -1;
        }
        return n == outputs.length ? outputs : null;
    }

    /** Reads the design, the model and the miter, synthesizes, runs sat (and writes the AIGER ABC reads); sat's log. */
    private static String yosys(Path folder, List<Path> design, List<String> defines, String miter, boolean aiger,
                                boolean smt2, long timeoutSeconds) throws IOException, InterruptedException {
        StringBuilder script = readDesign(design, defines);
        script.append("\nread_verilog -sv model.sv ").append(miter).append('\n')
                .append("hierarchy -check -top ").append(Miter.MODULE).append('\n')
                // an X, or a bit nothing drives, is any value (a simulator shows X; another tool may pick either), never 0:
                // each becomes a free input before opt could take it as a don't-care
                .append("proc; flatten; setundef -undriven -anyseq; setundef -anyseq; opt\n")
                .append(smt2 ? "write_smt2 -stbv miter.smt2\n" : "")
                .append("techmap; opt -fast; setundef -anyseq\n")
                .append("tee -o sat.log sat -prove bad 0 -show-inputs -show design_out,model_out\n")
                .append(aiger ? "aigmap\nwrite_aiger -zinit miter.aig\n" : "");
        Files.writeString(folder.resolve("prove.ys"), script);
        Files.deleteIfExists(folder.resolve("sat.log"));
        Run yosys = run(folder, "yosys.out", timeoutSeconds, "yosys", "-q", "-l", "yosys.log", "-s", "prove.ys");
        if (yosys.exit() == -1) {
            return ""; // timed out: no verdict
        }
        if (yosys.exit() != 0) {
            throw new UsageException("yosys could not read the design (" + folder.resolve("yosys.log") + "): "
                    + lastError(yosys.output()));
        }
        return Files.readString(folder.resolve("sat.log"));
    }

    /**
     * An SMT solver on the miter: Yosys' description of it, a state (the miter is combinational: its inputs are
     * the state's bits) and the assertion that bad is high. unsat is a proof; sat a refutation, whose model the
     * counterexample does not need (Yosys' gives it). Its memory is capped, as a solver lost in a hard query can
     * take all of it.
     */
    private static Engine smt(Path folder, String solver, long timeoutSeconds) throws IOException, InterruptedException {
        Path query = folder.resolve("miter-" + solver + ".smt2");
        Files.writeString(query, Files.readString(folder.resolve("miter.smt2"))
                + "(declare-fun s () |" + Miter.MODULE + "_s|)\n(assert (|" + Miter.MODULE + "_n bad| s))\n(check-sat)\n");
        long start = System.nanoTime();
        Run run = run(folder, solver + ".out", timeoutSeconds, "sh", "-c", "ulimit -v " + SMT_MEMORY_KB + " && exec \"$0\" \"$1\"", solver,
                query.getFileName().toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (run.exit() == 127) {
            throw new UsageException(solver + " is not installed (Debian: apt-get install " + solver + "): " + lastLine(run.output()));
        }
        String said = lastLine(run.output());
        Verdict verdict = said.equals("unsat") ? Verdict.PROVEN : said.equals("sat") ? Verdict.REFUTED : Verdict.UNDECIDED;
        return new Engine(solver + " (" + version(solver, "--version") + ")", verdict, seconds, said.isEmpty() ? "no result" : said);
    }

    /** The input of sat's model, the design's result for it and the reference's. */
    private static Counterexample counterexample(String sat, Converter converter) {
        Map<String, Long> values = new TreeMap<>();
        Matcher m = SIGNAL.matcher(sat);
        while (m.find()) {
            values.put(m.group(1), Long.parseUnsignedLong(m.group(2), 2));
        }
        long input = values.getOrDefault("in", -1L);
        return new Counterexample(input, values.getOrDefault("design_out", -1L), converter.apply(input));
    }

    record Run(int exit, String output) { }

    /** Runs a command in folder, its output to the log there (read once it ends): a hung engine is killed at the timeout. */
    static Run run(Path folder, String logName, long timeoutSeconds, String... command) throws IOException, InterruptedException {
        Path log = folder.resolve(logName);
        Process p;
        try {
            p = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UsageException(command[0] + " is not installed (Debian: apt-get install yosys): " + e.getMessage());
        }
        p.getOutputStream().close();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return new Run(-1, "timed out after " + timeoutSeconds + " s");
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private static String version(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("?");
            p.waitFor();
            return line.strip();
        } catch (IOException | InterruptedException e) {
            return "?";
        }
    }

    private static String lastLine(String output) {
        List<String> lines = output.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }

    static String lastError(String output) {
        return output.lines().filter(l -> l.contains("ERROR")).findFirst().orElse(lastLine(output));
    }

    /** The start of every Yosys script here: the design's files read with its defines (no newline after). */
    static StringBuilder readDesign(List<Path> design, List<String> defines) {
        StringBuilder script = new StringBuilder("read_verilog -sv");
        defines.forEach(d -> script.append(" -D").append(d));
        for (Path file : design) {
            script.append(' ').append(quoted(file.toAbsolutePath()));
        }
        return script;
    }

    private static String quoted(Path file) {
        return "\"" + file.toString().replace("\"", "\\\"") + "\"";
    }
}
