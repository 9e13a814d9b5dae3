package convcert.cli;

import convcert.rtl.ReferenceModel;
import picocli.CommandLine.Option;

/** --generation, shared by model and prove. */
public final class GenerationOption {

    @Option(names = "--generation", defaultValue = "auto", paramLabel = "G", converter = GenerationConverter.class,
            description = "The reference model's generation: auto (the datapath where the case has one, else its steps), "
                    + "datapath or steps (default: ${DEFAULT-VALUE}).")
    public ReferenceModel.Generation generation;
}
