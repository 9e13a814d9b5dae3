package convcert.rtl;

import convcert.common.UsageException;
import convcert.reference.Converter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A case of the reference as a combinational, synthesizable SystemVerilog module: the golden RTL model that
 * `convcert prove` puts beside a design in a miter, and that teams can simulate or hand to their own
 * equivalence tools. Two generations, from the tables through the reference: the arithmetic {@link Datapath}
 * of IEEE-style pairs, and the {@link Steps} of any case without a lane whose results change at few inputs
 * (every 8-bit destination: HiFloat8, E8M0, P3109, int8, and every case of an 8- or 16-bit source within the
 * limit). Where both exist they are two derivations of one function, and a proof of one against the other is
 * a check of each (ProveTest). ReferenceModelTest simulates models against the reference.
 */
public final class ReferenceModel {

    /** Which generation writes the model; AUTO takes the datapath where the case has one. */
    public enum Generation {
        AUTO, DATAPATH, STEPS;

        public static Generation parse(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    private ReferenceModel() {
    }

    /** Why the case has no model of the generation, or null when it has one. */
    public static String unsupported(Converter converter, Generation generation) {
        return model(converter, "unsupported", generation).why();
    }

    /** The module for a case; a case without a model of the generation is a usage error naming why. */
    public static String systemVerilog(Converter converter, String module, Generation generation) {
        Model model = model(converter, module, generation);
        if (model.why() != null) {
            throw new UsageException("no RTL model for " + converter.spec().describe() + ": " + model.why());
        }
        return model.text();
    }

    /** A module's text, or why there is none: exactly one of the two is null. */
    private record Model(String text, String why) {
    }

    /** Each generation asked for tried once, the datapath first. */
    private static Model model(Converter converter, String module, Generation generation) {
        String datapath = generation == Generation.STEPS ? null : Datapath.unsupported(converter);
        if (generation != Generation.STEPS && datapath == null) {
            return new Model(Datapath.systemVerilog(converter, module), null);
        }
        if (generation == Generation.DATAPATH) {
            return new Model(null, "no datapath: " + datapath);
        }
        Steps.Found steps = Steps.model(converter);
        if (steps.why() == null) {
            return new Model(steps.steps().systemVerilog(converter, module), null);
        }
        return new Model(null, (datapath == null ? "" : "no datapath: " + datapath + "; ") + "no steps: " + steps.why());
    }

    static String hex(int width, long value) {
        return width + "'h" + Long.toHexString(value).toUpperCase(Locale.ROOT);
    }

    /** The modules' names: one per case, from the case's path. */
    public static String moduleName(String casePath) {
        List<String> parts = new ArrayList<>();
        for (String p : casePath.split("[^A-Za-z0-9]+")) {
            if (!p.isEmpty()) {
                parts.add(p);
            }
        }
        return "ref_" + String.join("_", parts);
    }
}
