package convcert.suite.prove;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.NaNs;
import convcert.reference.Reference;
import convcert.vectors.CaseWriter;
import convcert.vectors.Generator;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFormat;
import convcert.rtl.ReferenceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * convcert prove's flow: the case's reference model and the miter written to a folder, both engines run on
 * them, a counterexample checked against the reference (an engine's input that does not fail the design is
 * no counterexample: the proof is then undecided) and written as golden vectors a simulation can read.
 */
public final class Prover {

    private Prover() {
    }

    public static Proof prove(Path folder, List<Path> design, List<String> defines, Miter miter, Converter converter,
                              boolean anyNaN, long timeoutSeconds) throws IOException, InterruptedException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("model.sv"), ReferenceModel.systemVerilog(converter, Miter.MODEL));
        Files.writeString(folder.resolve("miter.sv"), miter.systemVerilog(converter, anyNaN));
        Proof proof = check(Engines.run(folder, design, defines, converter, timeoutSeconds), converter, anyNaN, folder);
        // what was proven, by which engines and versions, in how long: the proof's provenance
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve("proof.json").toFile(),
                Map.of("case", converter.spec().describe(), "design", design.stream().map(Path::toString).toList(),
                        "top", miter.top(), "proof", proof));
        return proof;
    }

    /** A refutation stands only when the reference confirms its counterexample; then it is written as golden vectors. */
    private static Proof check(Proof proof, Converter converter, boolean anyNaN, Path folder) throws IOException {
        Proof.Counterexample x = proof.counterexample();
        if (proof.verdict() == Proof.Verdict.REFUTED) {
            var f = converter.destination().format();
            boolean differs = x.actual() != x.expected() && !(anyNaN && NaNs.isNaN(converter.destination(), x.actual())
                    && NaNs.isNaN(converter.destination(), x.expected()));
            if (!differs) {
                return new Proof(Proof.Verdict.UNDECIDED, proof.engines(), x);
            }
            int inDigits = converter.source().format().hexDigits();
            Files.writeString(folder.resolve("counterexample.in.memh"), hex(x.input(), inDigits));
            Files.writeString(folder.resolve("counterexample.expected.memh"), hex(x.expected(), f.hexDigits()));
        }
        return proof;
    }

    /**
     * A counterexample as certify reads one: a golden-vector set of the case with that input alone
     * (folder/vectors) and the design's output for it as a recording (folder/recording), so that certifying
     * the recording against the set reports it as any mismatch is reported.
     */
    public static void writeFinding(Path folder, Reference reference, Case state, Proof.Counterexample x) throws IOException {
        Path vectors = folder.resolve("vectors");
        Manifest.Entry entry = CaseWriter.write(vectors, reference, List.of(state), new long[] {x.input()},
                new long[] {x.expected()}, new String[] {"counterexample"}, Map.of("counterexample", 1),
                EnumSet.allOf(VectorFormat.class), Level.CI, 0);
        new Manifest(Generator.VERSION, Manifest.FORMAT_VERSION, List.of(entry)).write(vectors);
        Path recording = folder.resolve("recording").resolve(entry.name());
        Files.createDirectories(recording.getParent());
        Files.writeString(recording.resolveSibling(recording.getFileName() + ".in.memh"),
                hex(x.input(), state.conversion().from().hexDigits()));
        Files.writeString(recording.resolveSibling(recording.getFileName() + ".out.memh"),
                hex(x.actual(), state.conversion().to().hexDigits()));
    }

    private static String hex(long value, int digits) {
        String h = Long.toHexString(value);
        return "0".repeat(Math.max(0, digits - h.length())) + h + "\n";
    }
}
