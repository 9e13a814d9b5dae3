package convcert.suite.prove;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.common.Build;
import convcert.common.Sha256;
import convcert.common.Version;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.NaNs;
import convcert.reference.Reference;
import convcert.vectors.CaseWriter;
import convcert.vectors.CoverageModel;
import convcert.vectors.CoverageTag;
import convcert.vectors.Generator;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFormat;
import convcert.rtl.ReferenceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * convcert prove's flow: the case's reference model and the miter written to a folder, both engines run on
 * them, a counterexample checked against the reference (an engine's input that does not fail the design is
 * no counterexample: the proof is then undecided), then more found by excluding those before (one input can
 * fit several known bugs), all written as golden vectors a simulation can read.
 */
public final class Prover {

    private Prover() {
    }

    public static Proof prove(Path folder, List<Path> design, List<String> defines, Miter miter, Converter converter,
                              Settings settings, List<String> free) throws IOException, InterruptedException {
        boolean anyNaN = settings.anyNaN();
        long timeoutSeconds = settings.timeoutSeconds();
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("model.sv"), ReferenceModel.systemVerilog(converter, Miter.MODEL, settings.generation()));
        Files.writeString(folder.resolve("miter.sv"), miter.systemVerilog(converter, anyNaN, List.of()));
        Proof proof = Engines.run(folder, design, defines, converter, settings.smtSolvers(), timeoutSeconds);
        if (proof.verdict() == Proof.Verdict.REFUTED) {
            if (!differs(proof.counterexample(), converter, anyNaN)) {
                proof = new Proof(Proof.Verdict.UNDECIDED, proof.engines(), proof.counterexamples());
            } else {
                List<Proof.Counterexample> found = new ArrayList<>(proof.counterexamples());
                while (found.size() < settings.counterexamples()) {
                    Files.writeString(folder.resolve("miter-more.sv"), miter.systemVerilog(converter, anyNaN,
                            found.stream().map(Proof.Counterexample::input).toList()));
                    Proof.Counterexample next = Engines.another(folder, design, defines, "miter-more.sv", converter, timeoutSeconds);
                    if (next == null || !differs(next, converter, anyNaN)) {
                        break;
                    }
                    found.add(next);
                }
                proof = new Proof(proof.verdict(), proof.engines(), undefinedMarked(folder, design, defines, converter, found,
                        timeoutSeconds));
                write(folder.resolve("counterexample.in.memh"), found.stream().map(Proof.Counterexample::input).toList(),
                        converter.source().format().hexDigits());
                write(folder.resolve("counterexample.expected.memh"), found.stream().map(Proof.Counterexample::expected).toList(),
                        converter.destination().format().hexDigits());
            }
        }
        // what was proven (the files by digest, defines, parameters, the ports set and those left free), by which
        // build and engines, when and in how long: two designs or two runs are told apart
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("case", converter.spec().describe());
        List<Map<String, String>> files = new ArrayList<>();
        for (Path f : design) {
            files.add(Map.of("path", f.toString(), "sha256", Sha256.of(f)));
        }
        record.put("design", files);
        record.put("top", miter.top());
        record.put("defines", defines);
        record.put("params", miter.parameters());
        record.put("sets", miter.constants());
        record.put("free", free);
        record.put("provenance", Map.of("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), "convcert", Version.VALUE,
                "commit", Build.commit(), "jdk", Build.jdk(), "os", Build.os(),
                "host", Build.host()));
        record.put("proof", proof);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve("proof.json").toFile(), record);
        return proof;
    }

    /** The counterexamples, each marked where the design's output has X bits (Yosys' evaluator keeps them). */
    private static List<Proof.Counterexample> undefinedMarked(Path folder, List<Path> design, List<String> defines,
                                                              Converter converter, List<Proof.Counterexample> found,
                                                              long timeoutSeconds) throws IOException, InterruptedException {
        long[] outputs = Engines.evaluate(folder, design, defines, converter.source().format().width(),
                found.stream().mapToLong(Proof.Counterexample::input).toArray(), timeoutSeconds);
        List<Proof.Counterexample> marked = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            Proof.Counterexample x = found.get(i);
            marked.add(new Proof.Counterexample(x.input(), x.actual(), x.expected(), outputs != null && outputs[i] == -1));
        }
        return List.copyOf(marked);
    }

    /** Whether the reference confirms that the design's result differs, as certification compares results. */
    private static boolean differs(Proof.Counterexample x, Converter converter, boolean anyNaN) {
        return x.actual() != x.expected() && !(anyNaN && NaNs.isNaN(converter.destination(), x.actual())
                && NaNs.isNaN(converter.destination(), x.expected()));
    }

    /**
     * What the finding certifies: the counterexamples, and the case's ci inputs run on the design in Yosys' evaluator,
     * so that a diagnosis is checked against the inputs where the design is right as well as where it is wrong (eight
     * counterexamples alone fit several faults that the ci set tells apart). Null for the ci inputs where Yosys
     * could not evaluate the design: the counterexamples alone then.
     */
    public static List<Proof.Counterexample> withCiVectors(Path folder, List<Path> design, List<String> defines,
                                                          Reference reference, Converter converter,
                                                          List<Proof.Counterexample> found, long timeoutSeconds)
            throws IOException, InterruptedException {
        java.util.Set<Long> seen = new java.util.HashSet<>(found.stream().map(Proof.Counterexample::input).toList());
        long[] ci = Arrays.stream(new CoverageModel(reference, CoverageTag.builtIn(), Level.CI, 1)
                .inputs(converter.spec().conversion()).bits()).filter(x -> !seen.contains(x)).toArray();
        long[] actual = Engines.evaluate(folder, design, defines, converter.source().format().width(), ci, timeoutSeconds);
        if (actual == null) {
            return null;
        }
        List<Proof.Counterexample> all = new ArrayList<>(found);
        for (int i = 0; i < ci.length; i++) {
            all.add(new Proof.Counterexample(ci[i], actual[i], converter.apply(ci[i])));
        }
        return all;
    }

    /**
     * Counterexamples as certify reads them: a golden-vector set of the case with those inputs (the first
     * counterexamples of found, then the ci inputs evaluated beside them) (folder/vectors) and the design's outputs
     * for them as a recording (folder/recording), so that certifying the recording against the set reports them as
     * any mismatch is reported.
     */
    public static void writeFinding(Path folder, Reference reference, Case state, List<Proof.Counterexample> found,
                                    int counterexamples) throws IOException {
        Path vectors = folder.resolve("vectors");
        long[] inputs = found.stream().mapToLong(Proof.Counterexample::input).toArray();
        long[] expected = found.stream().mapToLong(Proof.Counterexample::expected).toArray();
        String[] tags = new String[inputs.length];
        Arrays.fill(tags, 0, counterexamples, "counterexample");
        Arrays.fill(tags, counterexamples, tags.length, "ci");
        Map<String, Integer> counts = new java.util.LinkedHashMap<>(Map.of("counterexample", counterexamples));
        if (tags.length > counterexamples) {
            counts.put("ci", tags.length - counterexamples);
        }
        Manifest.Entry entry = CaseWriter.write(vectors, reference, List.of(state), inputs, expected, tags,
                counts, EnumSet.allOf(VectorFormat.class), Level.CI, 0);
        new Manifest(Generator.VERSION, Manifest.FORMAT_VERSION, List.of(entry)).write(vectors);
        Path recording = folder.resolve("recording").resolve(entry.name());
        Files.createDirectories(recording.getParent());
        write(recording.resolveSibling(recording.getFileName() + ".in.memh"),
                found.stream().map(Proof.Counterexample::input).toList(), state.conversion().from().hexDigits());
        write(recording.resolveSibling(recording.getFileName() + ".out.memh"),
                found.stream().map(Proof.Counterexample::actual).toList(), state.conversion().to().hexDigits());
    }

    /** Values as $readmemh reads them: one a line, zero-padded hex. */
    private static void write(Path file, List<Long> values, int digits) throws IOException {
        StringBuilder text = new StringBuilder();
        for (long value : values) {
            String h = Long.toHexString(value);
            text.append("0".repeat(Math.max(0, digits - h.length()))).append(h).append('\n');
        }
        Files.writeString(file, text);
    }
}
