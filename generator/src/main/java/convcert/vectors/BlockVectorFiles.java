package convcert.vectors;

import convcert.common.UsageException;
import convcert.reference.BlockConverter;
import convcert.reference.Reference;
import convcert.spec.BlockFormat;
import convcert.spec.Format;
import convcert.spec.Rounding;
import convcert.spec.TensorShape;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cases of a profile's block-scaled formats (blocks.csv) and tensors (tensors.csv) as golden vectors: per
 * block format, values -> block in each of its modes and block -> values, one vector per block (a tensor's
 * block is the whole tensor). Layouts
 * (vectors/README.md, "Blocks"): CSV with a block per row (values in block order, space-separated
 * hex); .bin with each value in its format's bytes, block after block; .memh with a block per line,
 * value 0 in the lowest digits.
 */
public final class BlockVectorFiles implements ExtensionCases {

    private final Reference reference;

    private BlockVectorFiles(Reference reference) {
        this.reference = reference;
    }

    /** The block cases of a profile with blocks.csv; none otherwise. */
    public static List<ExtensionCases> of(Reference reference) {
        return reference.tables().blocks().isEmpty() ? List.of() : List.of(new BlockVectorFiles(reference));
    }

    /** Every block case of the profile: its converter; values -> block cases first. */
    public static List<BlockConverter> cases(Reference reference) {
        List<BlockConverter> cases = new ArrayList<>();
        for (BlockFormat b : reference.tables().blocks().values()) {
            for (Rounding mode : b.modes().stream().sorted().toList()) {
                cases.add(reference.blockConverter(b, mode, true));
            }
            cases.add(reference.blockConverter(b, Rounding.RN, false));
        }
        return cases;
    }

    /**
     * The block case FROM->TO in a mode (a manifest entry's from, to and rounding), or a usage error
     * naming what the profile lacks.
     */
    public static BlockConverter converter(Reference reference, String from, String to, String rounding) {
        Rounding mode = Rounding.parse(rounding);
        BlockFormat into = reference.tables().blocks().get(to);
        BlockFormat out = reference.tables().blocks().get(from);
        if (into != null && into.value().name().equals(from) && into.modes().contains(mode)) { // values -> blocks
            return reference.blockConverter(into, mode, true);
        }
        if (out != null && out.value().name().equals(to) && mode == Rounding.RN) { // blocks -> values, exact but for overflow
            return reference.blockConverter(out, mode, false);
        }
        throw new UsageException("no block case " + from + "->" + to + " " + rounding + " in profile "
                + reference.tables().profile() + " (blocks.csv)");
    }

    @Override
    public List<Manifest.Entry> write(Path out, Level level, long seed, Set<VectorFormat> formats) throws IOException {
        String profile = reference.tables().profile();
        List<Manifest.Entry> entries = new ArrayList<>();
        for (BlockConverter c : cases(reference)) {
            BlockCoverage.Blocks inputs = inputs(reference, c, level, seed);
            long[] expected = new long[inputs.count() * c.outputsPerBlock()];
            c.apply(inputs.values(), 0, expected, 0, inputs.count());
            CaseId.Block id = c.id(profile);
            String name = id.path();
            Path base = VectorFiles.inside(out, out.resolve(name));
            Files.createDirectories(base.getParent());
            Map<String, Manifest.FileRef> files = new LinkedHashMap<>();
            for (VectorFormat format : VectorFormat.values()) {
                if (!formats.contains(format)) {
                    continue;
                }
                Map<String, String> digests = switch (format) {
                    case CSV -> Map.of(".csv", VectorFiles.writeText(base.resolveSibling(base.getFileName() + ".csv"),
                            csv(c, inputs, expected)));
                    case BIN -> binary(base, c, inputs.values(), expected);
                    case MEMH -> memh(base, c, inputs.values(), expected);
                };
                for (String suffix : format.suffixes()) {
                    files.put(suffix, new Manifest.FileRef(name + suffix, digests.get(suffix)));
                }
            }
            entries.add(new Manifest.Entry(name, profile, id.from(), id.to(), id.rounding(), id.kind().state(),
                    c.toBlock() ? "sat" : "nosat", CaseKey.NO_FORM, "-", Map.of(), reference.tables().digest(),
                    reference.semantics().choices(), level.label(), seed, inputs.count(), inputs.counts(), files, List.of(), null, null));
        }
        return entries;
    }

    /** A case's blocks (or tensors) for a level and seed; under rs with each value's random bits after the values. */
    static BlockCoverage.Blocks inputs(Reference reference, BlockConverter c, Level level, long seed) {
        BlockCoverage.Blocks inputs = c.block().extent() instanceof TensorShape shape
                ? TensorCoverage.of(reference, c.block(), shape, c.toBlock(), level, seed)
                : c.toBlock() ? new BlockCoverage(reference, c.block(), level, seed).toBlock()
                : new BlockCoverage(reference, c.block(), level, seed).fromBlock();
        return c.stochastic() ? StochasticBlocks.of(reference, c, inputs, seed) : inputs;
    }

    private static String csv(BlockConverter c, BlockCoverage.Blocks inputs, long[] expected) {
        List<Format> in = BlockLayout.of(c, true).formats();
        List<Format> outs = BlockLayout.of(c, false).formats();
        StringBuilder b = new StringBuilder("block,input,expected,coverage\n");
        for (int k = 0; k < inputs.count(); k++) {
            b.append(k).append(',');
            words(b, inputs.values(), k * in.size(), in);
            b.append(',');
            words(b, expected, k * outs.size(), outs);
            b.append(',').append(inputs.tags()[k]).append('\n');
        }
        return b.toString();
    }

    private static void words(StringBuilder b, long[] values, int offset, List<Format> formats) {
        for (int i = 0; i < formats.size(); i++) {
            b.append(i == 0 ? "" : " ").append(formats.get(i).hex(values[offset + i]));
        }
    }

    private static Map<String, String> binary(Path base, BlockConverter c, long[] in, long[] expected) throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        BlockLayout inputs = BlockLayout.of(c, true);
        BlockLayout outputs = BlockLayout.of(c, false);
        digests.put(".in.bin", VectorFiles.writeBytes(base, ".in.bin", inputs.pack(in, in.length / inputs.values())));
        digests.put(".expected.bin", VectorFiles.writeBytes(base, ".expected.bin",
                outputs.pack(expected, expected.length / outputs.values())));
        return digests;
    }

    private static Map<String, String> memh(Path base, BlockConverter c, long[] in, long[] expected) throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        digests.put(".in.memh", VectorFiles.writeBytes(base, ".in.memh",
                BlockLayout.of(c, true).memh(in).getBytes(StandardCharsets.US_ASCII)));
        digests.put(".expected.memh", VectorFiles.writeBytes(base, ".expected.memh",
                BlockLayout.of(c, false).memh(expected).getBytes(StandardCharsets.US_ASCII)));
        return digests;
    }
}
