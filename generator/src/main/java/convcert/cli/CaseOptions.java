package convcert.cli;

import convcert.reference.Case;
import convcert.reference.Reference;
import picocli.CommandLine.Option;

/** The options that name one conversion case, shared by convert and digest: types, rounding, form, CTRL bits. */
public final class CaseOptions {

    @Option(names = "--from", required = true, paramLabel = "TYPE", description = "Source type (name or alias).")
    String from;

    @Option(names = "--to", required = true, paramLabel = "TYPE", description = "Destination type (name or alias).")
    String to;

    @Option(names = "--rounding", paramLabel = "MODE",
            description = "rn rd ru rna rz ro rh rs; default: the pair's implicit rounding or its only mode.")
    String rounding;

    @Option(names = "--saturation", paramLabel = "FORM",
            description = "API form: nosat (no _sat suffix), sat (_sat), implicit (Table 1); P3109's satfinite, "
                    + "satpropagate, satnone; default: the first the pair offers (nosat where offered).")
    String saturation;

    @Option(names = "--ctrl", paramLabel = "BIT=V,...",
            description = "CTRL bits, e.g. 60=0,48=1; unset bits keep their power-on values (ctrl.csv).")
    String ctrl;

    /** The case these options name, in the reference's profile. */
    public Case resolve(Reference reference) {
        return reference.resolve(from, to, rounding, saturation, reference.ctrl(ctrl));
    }
}
