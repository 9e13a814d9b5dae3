package convcert.cli;

import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.rtl.ReferenceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert model: a case of the reference as a synthesizable SystemVerilog module. */
@Command(name = "model", mixinStandardHelpOptions = true,
        header = "Write a case of the reference as a synthesizable SystemVerilog module.",
        description = "The golden RTL model of one case (ports in and out), generated from the tables: for a simulation, "
                + "an equivalence tool, or convcert prove. Its datapath for conversions between IEEE-style formats (binary16/32/64, "
                + "bfloat16, FP8, FNUZ, FP6, FP4) and from integers to them in rn, rna, rz, ru, rd and ro; its steps (comparators "
                + "and a multiplexer) for any case whose results change at no more than 4096 inputs: every 8-bit destination "
                + "(HiFloat8, E8M0, P3109, integers) and most 8- and 16-bit sources. Another case is refused, naming why.")
public final class ModelCommand implements Callable<Integer> {

    @Mixin
    CaseOptions conversion;

    @Mixin
    ProfileOptions profile;

    @Option(names = "--module", paramLabel = "NAME", description = "The module's name (default: ref_ and the case's path).")
    String module;

    @Mixin
    GenerationOption generation;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the module here instead of stdout.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Case c = conversion.resolve(reference);
        Converter converter = reference.converter(c);
        String name = module != null ? module : ReferenceModel.moduleName(reference.names().id(c, "").path());
        String text = ReferenceModel.systemVerilog(converter, name, generation.generation);
        if (out == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        } else {
            Files.writeString(out, text);
        }
        return 0;
    }
}
