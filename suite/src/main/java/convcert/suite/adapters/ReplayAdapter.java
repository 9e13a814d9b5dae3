package convcert.suite.adapters;

import convcert.common.Sha256;
import convcert.common.WorkingDirectory;
import convcert.families.CaseKeys;
import convcert.reference.BlockConverter;
import convcert.reference.Reference;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.BlockOperations;
import convcert.spi.Capability;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.vectors.BlockLayout;
import convcert.vectors.BlockVectorFiles;
import java.io.IOException;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Outputs recorded elsewhere (a board run, an RTL simulation's $writememh, a GPU run), checked
 * offline. The recording folder mirrors vectors/: PROFILE/FROM-TO/ROUNDING-STATE.out.bin (or .out.memh);
 * only the folder of the profile under certification counts. The outputs file
 * holds the outputs for the inputs in .in.bin (or .in.memh) beside it; without its own inputs file a
 * recording answers the vector set's inputs in order. A stochastic (rs) or scaled recording's inputs
 * come with their random bits or scales (.random.bin, .scale.bin beside them, or the vector set's).
 * Option dir=RECORDING FOLDER.
 */
public final class ReplayAdapter implements ConverterAdapter, BlockOperations, FlagOperations, RandomOperations,
        ScaleOperations {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "replay";
        }

        @Override
        public String description() {
            return "recorded outputs in the vectors/ layout (option dir=...)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException {
            return new ReplayAdapter(Path.of(Adapters.required(options, "dir", "replay")), context);
        }
    }

    private final Path dir;
    private final AdapterContext context;
    private final List<Capability> capabilities = new ArrayList<>();
    private final Map<String, Path> recordings = new HashMap<>();
    private final Map<String, Recording> loaded = new HashMap<>();
    private final Map<String, BlockRecording> blockRecordings = new HashMap<>();

    ReplayAdapter(Path dir, AdapterContext context) throws AdapterException {
        this.dir = dir;
        this.context = context;
        if (!Files.isDirectory(dir)) {
            throw new AdapterException("no recording folder " + dir);
        }
        String profile = context.profile();
        Path profileDir = dir.resolve(profile);
        if (!Files.isDirectory(profileDir)) {
            throw new AdapterException("the recording " + dir + " has no folder " + profile + "/ for the profile under "
                    + "certification (it has: " + folders(dir) + ")");
        }
        Map<String, CaseId> known = casesByPath(SuiteContext.referenceOf(context));
        try (Stream<Path> files = Files.walk(profileDir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".out.bin") || f.toString().endsWith(".out.memh"))
                    .sorted().toList()) {
                String name = p.getFileName().toString().replaceFirst("\\.out\\.(bin|memh)$", "");
                CaseId id = known.get(profile + "/" + p.getParent().getFileName() + "/" + name);
                if (!Files.isRegularFile(p)) {
                    throw new AdapterException("recording " + p + " is not a regular file (a FIFO, a device or a link to "
                            + "one is not read)");
                }
                if (id == null) {
                    throw new AdapterException("recording " + p + " names no case of profile " + profile
                            + " (PROFILE/FROM-TO/ROUNDING-STATE.out.bin, e.g. " + profile + "/float-half/rn-nosat.out.bin)");
                }
                if (recordings.put(id.name(), p) != null) {
                    throw new AdapterException("case " + id.name() + " is recorded twice (.out.bin and .out.memh) in " + p.getParent());
                }
                CaseKey key = id.key();
                BlockConverter block = id instanceof CaseId.Block b
                        ? BlockVectorFiles.converter(SuiteContext.referenceOf(context), b.from(), b.to(), b.rounding()) : null;
                if (block != null && !p.toString().endsWith(".bin")) {
                    throw new AdapterException("recording " + p + ": block cases are recorded as .out.bin");
                }
                if (block != null) {
                    checkBlockSizes(p, block, context.vectors().resolve(id.path() + ".in.bin"));
                } else if (p.toString().endsWith(".bin")) {
                    checkSizes(p, context.widthOf(key.to()), context.widthOf(key.from()),
                            context.vectors().resolve(id.path() + ".in.bin"));
                }
                capabilities.add(new Capability(key.from(), key.to(), key.rounding(), key.state()));
            }
        } catch (IOException e) {
            throw new AdapterException("cannot read " + dir + ": " + e.getMessage());
        }
        if (recordings.isEmpty()) {
            throw new AdapterException("no recordings (ROUNDING-STATE.out.bin or .out.memh) under " + profileDir);
        }
    }

    private static String folders(Path dir) throws AdapterException {
        try (Stream<Path> list = Files.list(dir)) {
            List<String> names = list.filter(Files::isDirectory).map(p -> p.getFileName() + "/").sorted().toList();
            return names.isEmpty() ? "nothing" : String.join(" ", names);
        } catch (IOException e) {
            throw new AdapterException("cannot read " + dir + ": " + e.getMessage());
        }
    }

    /** The cases a recording may name by path ("cuda/float-half/rn-nosat"): every case of the profile, first variants only. */
    private static Map<String, CaseId> casesByPath(Reference reference) {
        Map<String, CaseId> cases = new HashMap<>();
        for (CaseKey k : CaseKeys.ofProfile(reference)) {
            if (k.variant().isEmpty()) {
                CaseId id = CaseId.of(k);
                cases.put(id.path(), id);
            }
        }
        return cases;
    }

    /** A .out.bin holds whole elements, as many as the .in.bin beside it (when there is one). */
    private static void checkSizes(Path out, int outWidth, int inWidth, Path vectorInputs)
            throws IOException, AdapterException {
        long size = Files.size(out);
        long elements = size / VectorBytes.of(outWidth);
        if (elements * (3 * 8 + VectorBytes.of(outWidth) + VectorBytes.of(inWidth)) > Runtime.getRuntime().maxMemory() / 2) {
            throw new AdapterException("recording " + out + ": " + elements + " outputs are more than this JVM's memory "
                    + "can hold to replay (give convcert more memory: JAVA_TOOL_OPTIONS=-Xmx...)");
        }
        if (size % VectorBytes.of(outWidth) != 0) {
            throw new AdapterException("recording " + out + ": " + size + " bytes is not a whole number of "
                    + outWidth + "-bit elements (" + VectorBytes.of(outWidth) + " bytes each)");
        }
        Path in = Path.of(out.toString().replaceFirst("\\.out\\.bin$", ".in.bin"));
        if (Files.isRegularFile(in) && Files.size(in) / VectorBytes.of(inWidth) != size / VectorBytes.of(outWidth)) {
            throw new AdapterException("recording " + out + ": " + size / VectorBytes.of(outWidth) + " outputs for "
                    + Files.size(in) / VectorBytes.of(inWidth) + " inputs in " + in.getFileName());
        }
        if (Files.isRegularFile(in) && Files.size(in) % VectorBytes.of(inWidth) != 0) {
            throw new AdapterException("recording " + in + ": not a whole number of " + inWidth + "-bit elements");
        }
        if (!Files.isRegularFile(in) && Files.isRegularFile(vectorInputs)
                && Files.size(vectorInputs) / VectorBytes.of(inWidth) != size / VectorBytes.of(outWidth)) {
            throw new AdapterException("recording " + out + ": " + size / VectorBytes.of(outWidth) + " outputs for the "
                    + Files.size(vectorInputs) / VectorBytes.of(inWidth) + " inputs of " + vectorInputs);
        }
    }

    /** A block case's .out.bin holds whole blocks, as many as the inputs beside it or else the vector set's. */
    private static void checkBlockSizes(Path out, BlockConverter c, Path vectorSetInputs) throws IOException, AdapterException {
        Path beside = Path.of(out.toString().replaceFirst("\\.out\\.bin$", ".in.bin"));
        Path vectorInputs = Files.isRegularFile(beside) ? beside : vectorSetInputs;
        long size = Files.size(out);
        int outBytes = BlockLayout.of(c, false).bytes();
        int inBytes = BlockLayout.of(c, true).bytes();
        if (size % outBytes != 0) {
            throw new AdapterException("recording " + out + ": " + size + " bytes is not a whole number of blocks ("
                    + outBytes + " bytes each)");
        }
        if (Files.isRegularFile(vectorInputs) && Files.size(vectorInputs) / inBytes != size / outBytes) {
            throw new AdapterException("recording " + out + ": " + size / outBytes + " blocks for the "
                    + Files.size(vectorInputs) / inBytes + " blocks of " + vectorInputs);
        }
    }

    /** A block case's recording: its blocks (their index by content) and the outputs in that order. */
    private record BlockRecording(Map<LongBuffer, Integer> index, long[] outputs) {
    }

    @Override
    public void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        BlockConverter block = BlockVectorFiles.converter(SuiteContext.referenceOf(context), c.from(), c.to(), c.rounding());
        int in = block.inputsPerBlock();
        int out = block.outputsPerBlock();
        BlockRecording recording = blockRecordings.get(c.name());
        if (recording == null) {
            recording = loadBlocks(c, block);
            blockRecordings.put(c.name(), recording);
        }
        for (int b = 0; b < count; b++) {
            Integer at = recording.index().get(LongBuffer.wrap(inputs, b * in, in).slice());
            if (at == null) {
                throw new AdapterException("the recording " + recordings.get(c.name()) + " has no output for block " + b
                        + " of this batch (not among the vector set's blocks)");
            }
            System.arraycopy(recording.outputs(), at * out, outputs, b * out, out);
        }
    }

    private BlockRecording loadBlocks(CaseKey c, BlockConverter block) throws AdapterException {
        Path outFile = recordings.get(c.name());
        Path beside = Path.of(outFile.toString().replaceFirst("\\.out\\.bin$", ".in.bin"));
        Path vectorInputs = Files.isRegularFile(beside) ? beside : context.vectors().resolve(CaseId.of(c).path() + ".in.bin");
        try {
            if (!Files.isRegularFile(vectorInputs)) {
                throw new AdapterException("the recording " + outFile + " pairs with " + vectorInputs + ", which does not exist");
            }
            BlockLayout inLayout = BlockLayout.of(block, true);
            BlockLayout outLayout = BlockLayout.of(block, false);
            byte[] inBytes = Files.readAllBytes(vectorInputs);
            byte[] outBytes = Files.readAllBytes(outFile);
            int blocks = inBytes.length / inLayout.bytes();
            if (outBytes.length != blocks * outLayout.bytes()) {
                throw new AdapterException("the recording " + outFile + " does not hold " + blocks + " blocks");
            }
            long[] ins = inLayout.unpack(inBytes);
            long[] outs = outLayout.unpack(outBytes);
            Map<LongBuffer, Integer> index = new HashMap<>();
            for (int b = 0; b < blocks; b++) {
                index.putIfAbsent(LongBuffer.wrap(ins, b * inLayout.values(), inLayout.values()).slice(), b);
            }
            return new BlockRecording(index, outs);
        } catch (IOException e) {
            throw new AdapterException("cannot read the recording " + outFile + ": " + e.getMessage());
        }
    }

    /** The recording folder and one SHA-256 over its output files' names and digests, in name order. */
    @Override
    public String identity() {
        StringBuilder all = new StringBuilder();
        recordings.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> all.append(e.getKey()).append(' ').append(Identity.digest(e.getValue())).append('\n'));
        return "recording " + WorkingDirectory.relative(dir) + " (" + recordings.size() + " output files, sha256 "
                + Sha256.of(all.toString().getBytes(StandardCharsets.UTF_8)) + ")";
    }

    /** Told the effective state; the form and CTRL variants would only repeat the same answers. */
    @Override
    public boolean programsSaturation() {
        return false;
    }

    @Override
    public List<Capability> capabilities() {
        return capabilities;
    }

    /** Whether the recording holds flags (a ROUNDING-STATE.flags.bin beside any of its outputs). */
    @Override
    public boolean reportsFlags() {
        return recordings.values().stream().anyMatch(p -> Files.isRegularFile(flagsFile(p)));
    }

    private static Path flagsFile(Path outFile) {
        return Path.of(outFile.toString().replaceFirst("\\.out\\.(bin|memh)$", ".flags.bin"));
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, byte[] flags, int count) throws AdapterException {
        replay(c, inputs, outputs, flags, count);
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        replay(c, inputs, outputs, null, count);
    }

    /** A stochastic case: each input and its random bits are one operand, as the recording's are. */
    @Override
    public void convert(CaseKey c, long[] inputs, long[] random, long[] outputs, int count) throws AdapterException {
        withLane(c, inputs, random, outputs, count);
    }

    /** A scaled case: each input and its scale are one operand, as the recording's are. */
    @Override
    public void convertScaled(CaseKey c, long[] inputs, long[] scales, long[] outputs, int count) throws AdapterException {
        withLane(c, inputs, scales, outputs, count);
    }

    private void withLane(CaseKey c, long[] inputs, long[] lane, long[] outputs, int count) throws AdapterException {
        int width = context.widthOf(c.from());
        long[] operands = new long[count];
        for (int i = 0; i < count; i++) {
            operands[i] = inputs[i] | lane[i] << width;
        }
        replay(c, operands, outputs, null, count);
    }

    /** The recorded outputs of the inputs, and their flags where flags is not null. */
    private void replay(CaseKey c, long[] inputs, long[] outputs, byte[] flags, int count) throws AdapterException {
        Recording recording = loaded.get(c.name());
        if (recording == null) {
            recording = load(c);
            loaded.put(c.name(), recording);
        }
        if (flags != null && count > 0 && recording.flags == null) {
            throw new AdapterException("the recording has no flags for " + c.name() + " ("
                    + flagsFile(recordings.get(c.name())) + " is missing)");
        }
        if (count > 0 && recording.inputs.length > 0 && inputs[0] == recording.inputs[0]) {
            recording.cursor = 0; // a pass over the case in recorded order starts again
        }
        for (int i = 0; i < count; i++) {
            int k = recording.answer(inputs[i]);
            if (k < 0) {
                throw new AdapterException("the recording " + recordings.get(c.name()) + " has no output for input 0x"
                        + Long.toHexString(inputs[i]));
            }
            outputs[i] = recording.outputs[k];
            if (flags != null) {
                flags[i] = recording.flags[k];
            }
        }
    }

    private Recording load(CaseKey c) throws AdapterException {
        Path outFile = recordings.get(c.name());
        boolean memh = outFile.toString().endsWith(".memh");
        Path inFile = Path.of(outFile.toString().replaceFirst("\\.out\\.(bin|memh)$", ".in." + (memh ? "memh" : "bin")));
        try {
            long[] outs = Recording.read(outFile, context.widthOf(c.to()), memh);
            long[] ins;
            if (Files.isRegularFile(inFile)) {
                ins = Recording.read(inFile, context.widthOf(c.from()), memh);
            } else {
                Path vectorInputs = context.vectors().resolve(CaseId.of(c).path() + ".in.bin");
                if (!Files.isRegularFile(vectorInputs)) {
                    throw new AdapterException("the recording " + outFile + " has no inputs file and " + vectorInputs
                            + " does not exist");
                }
                ins = Recording.read(vectorInputs, context.widthOf(c.from()), false);
            }
            if (ins.length != outs.length) {
                throw new AdapterException("the recording " + outFile + " holds " + outs.length + " outputs for "
                        + ins.length + " inputs");
            }
            Recording.withLaneValues(SuiteContext.referenceOf(context).conversion(c.from(), c.to()), c, ins,
                    Files.isRegularFile(inFile) ? inFile : null, memh, context.vectors(), context.widthOf(c.from()));
            Map<Long, Integer> first = new HashMap<>(ins.length * 2);
            for (int i = 0; i < ins.length; i++) {
                Integer before = first.putIfAbsent(ins[i], i);
                if (before != null && outs[before] != outs[i]) {
                    throw new AdapterException("the recording " + outFile + " records input 0x" + Long.toHexString(ins[i])
                            + " twice with different outputs (0x" + Long.toHexString(outs[before]) + " at " + before
                            + ", 0x" + Long.toHexString(outs[i]) + " at " + i + ")");
                }
            }
            Path flagsFile = flagsFile(outFile);
            byte[] flags = Files.isRegularFile(flagsFile) ? Files.readAllBytes(flagsFile) : null;
            if (flags != null && flags.length != outs.length) {
                throw new AdapterException("the recording " + flagsFile + " holds " + flags.length + " flags for "
                        + outs.length + " outputs");
            }
            return new Recording(ins, outs, flags);
        } catch (IOException e) {
            throw new AdapterException("cannot read the recording " + outFile + ": " + e.getMessage());
        }
    }
}
