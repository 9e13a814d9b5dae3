package convcert.vectors;

import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.Reference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One case's files (each layout asked for) and its manifest entry: what generate writes for every saturation
 * state of a pair, and what prove writes for a counterexample, so that certify reads either the same way.
 */
public final class CaseWriter {

    private CaseWriter() {
    }

    /**
     * Writes the case's vectors under out and returns its entry; variants are the (form, CTRL) settings that
     * select the state, the first being the case's own; expected holds the reference's results.
     */
    public static Manifest.Entry write(Path out, Reference reference, List<Case> variants, long[] inputs, long[] expected,
                                       String[] tags, Map<String, Integer> coverage, Set<VectorFormat> formats, Level level,
                                       long seed) throws IOException {
        Case state = variants.getFirst();
        Converter converter = reference.converter(state);
        List<Manifest.Variant> selections = new ArrayList<>();
        for (Case variant : variants) {
            selections.add(new Manifest.Variant(reference.names().variantLabel(variant), variant.form().tableName(),
                    variant.ctrl().names()));
        }
        String name = reference.names().id(state, "").path();
        Path base = VectorFiles.inside(out, out.resolve(name));
        Files.createDirectories(base.getParent());
        byte[] flags = reference.tables().hasFlags() ? flags(converter, inputs, expected) : null;
        Map<String, Manifest.FileRef> files = new LinkedHashMap<>();
        for (VectorFormat format : VectorFormat.values()) {
            if (formats.contains(format)) {
                VectorFiles.write(base, format, converter, inputs, expected, flags, tags)
                        .forEach((suffix, sha) -> files.put(suffix, new Manifest.FileRef(name + suffix, sha)));
            }
        }
        var c = state.conversion();
        var mode = state.rounding();
        return new Manifest.Entry(name, reference.tables().profile(), c.from().name(), c.to().name(), mode.suffix(),
                state.stateLabel(), state.saturation().tableName(), state.form().tableName(),
                "_" + mode.suffix() + state.form().apiSuffix(), state.ctrl().names(), reference.tables().digest(),
                reference.semantics().choices(), level.label(), seed, inputs.length, coverage, files, selections,
                CaseWords.elements(converter), CaseWords.words(reference, converter));
    }

    /** Each vector's exception flags, the flags lane of a profile with flags.csv. */
    private static byte[] flags(Converter converter, long[] inputs, long[] expected) {
        Flags lane = converter.flags();
        byte[] flags = new byte[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            flags[i] = (byte) lane.of(inputs[i], expected[i]);
        }
        return flags;
    }
}
