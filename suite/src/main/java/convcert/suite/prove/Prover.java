package convcert.suite.prove;

import convcert.reference.Converter;
import convcert.rtl.ReferenceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        Proof proof = Engines.run(folder, design, defines, converter, timeoutSeconds);
        Proof.Counterexample x = proof.counterexample();
        if (proof.verdict() == Proof.Verdict.REFUTED) {
            var f = converter.destination().format();
            boolean differs = x.actual() != x.expected() && !(anyNaN && convcert.reference.NaNs.isNaN(converter.destination(), x.actual())
                    && convcert.reference.NaNs.isNaN(converter.destination(), x.expected()));
            if (!differs || (x.actual() & ~f.mask()) != 0) {
                return new Proof(Proof.Verdict.UNDECIDED, proof.engines(), x);
            }
            int inDigits = converter.source().format().hexDigits();
            Files.writeString(folder.resolve("counterexample.in.memh"), hex(x.input(), inDigits));
            Files.writeString(folder.resolve("counterexample.expected.memh"), hex(x.expected(), f.hexDigits()));
        }
        return proof;
    }

    private static String hex(long value, int digits) {
        String h = Long.toHexString(value);
        return "0".repeat(Math.max(0, digits - h.length())) + h + "\n";
    }
}
