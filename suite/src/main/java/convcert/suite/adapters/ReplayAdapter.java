package convcert.suite.adapters;

import convcert.vectors.VectorFiles;
import convcert.suite.spi.AdapterContext;
import convcert.suite.spi.AdapterException;
import convcert.suite.spi.AdapterProvider;
import convcert.suite.spi.Capability;
import convcert.suite.spi.CaseKey;
import convcert.suite.spi.ConverterAdapter;
import java.io.IOException;
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
 * recording answers the vector set's inputs in order. Option dir=RECORDING FOLDER.
 */
public final class ReplayAdapter implements ConverterAdapter {

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

    /**
     * One recording: inputs and outputs in recorded order. Batches usually ask for the inputs in that
     * order, so a cursor answers them; other orders fall back to a map built on first need.
     */
    private static final class Recording {
        final long[] inputs;
        final long[] outputs;
        int cursor;
        Map<Long, Long> byInput;

        Recording(long[] inputs, long[] outputs) {
            this.inputs = inputs;
            this.outputs = outputs;
        }

        Long answer(long input) {
            if (cursor < inputs.length && inputs[cursor] == input) {
                return outputs[cursor++];
            }
            if (byInput == null) {
                byInput = new HashMap<>(inputs.length * 2);
                for (int i = 0; i < inputs.length; i++) {
                    byInput.put(inputs[i], outputs[i]);
                }
            }
            return byInput.get(input);
        }
    }

    ReplayAdapter(Path dir, AdapterContext context) throws AdapterException {
        this.dir = dir;
        this.context = context;
        if (!Files.isDirectory(dir)) {
            throw new AdapterException("no recording folder " + dir);
        }
        Path profileDir = dir.resolve(context.reference().tables().profile());
        try (Stream<Path> files = Files.isDirectory(profileDir) ? Files.walk(profileDir) : Stream.empty()) {
            for (Path p : files.filter(f -> f.toString().endsWith(".out.bin") || f.toString().endsWith(".out.memh")).toList()) {
                String name = p.getFileName().toString().replaceFirst("\\.out\\.(bin|memh)$", "");
                String pair = p.getParent().getFileName().toString();
                String[] fromTo = pair.split("-", 2);
                int dash = name.indexOf('-');
                if (fromTo.length != 2 || dash < 0) {
                    throw new AdapterException("recording " + p + " is not named PROFILE/FROM-TO/ROUNDING-STATE.out.bin");
                }
                capabilities.add(new Capability(fromTo[0], fromTo[1], name.substring(0, dash), name.substring(dash + 1)));
                recordings.put(fromTo[0] + "->" + fromTo[1] + "/" + name, p);
            }
        } catch (IOException e) {
            throw new AdapterException("cannot read " + dir + ": " + e.getMessage());
        }
    }

    /** The recording folder and one SHA-256 over its output files' names and digests, in name order. */
    @Override
    public String identity() {
        StringBuilder all = new StringBuilder();
        recordings.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> all.append(e.getKey()).append(' ').append(Identity.digest(e.getValue())).append('\n'));
        return "recording " + dir + " (" + recordings.size() + " output files, sha256 "
                + convcert.vectors.Sha256.of(all.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)) + ")";
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

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        Recording recording = loaded.get(c.name());
        if (recording == null) {
            recording = load(c);
            loaded.put(c.name(), recording);
        }
        if (count > 0 && recording.inputs.length > 0 && inputs[0] == recording.inputs[0]) {
            recording.cursor = 0; // a pass over the case in recorded order starts again
        }
        for (int i = 0; i < count; i++) {
            Long out = recording.answer(inputs[i]);
            if (out == null) {
                throw new AdapterException("the recording " + recordings.get(c.name()) + " has no output for input 0x"
                        + Long.toHexString(inputs[i]));
            }
            outputs[i] = out;
        }
    }

    private Recording load(CaseKey c) throws AdapterException {
        Path outFile = recordings.get(c.name());
        boolean memh = outFile.toString().endsWith(".memh");
        Path inFile = Path.of(outFile.toString().replaceFirst("\\.out\\.(bin|memh)$", ".in." + (memh ? "memh" : "bin")));
        try {
            long[] outs = read(outFile, context.widthOf(c.to()), memh);
            long[] ins;
            if (Files.isRegularFile(inFile)) {
                ins = read(inFile, context.widthOf(c.from()), memh);
            } else {
                Path vectorInputs = context.vectors().resolve(c.profile()).resolve(c.from() + "-" + c.to())
                        .resolve(c.rounding() + "-" + c.state() + ".in.bin");
                if (!Files.isRegularFile(vectorInputs)) {
                    throw new AdapterException("the recording " + outFile + " has no inputs file and " + vectorInputs
                            + " does not exist");
                }
                ins = read(vectorInputs, context.widthOf(c.from()), false);
            }
            if (ins.length != outs.length) {
                throw new AdapterException("the recording " + outFile + " holds " + outs.length + " outputs for "
                        + ins.length + " inputs");
            }
            return new Recording(ins, outs);
        } catch (IOException e) {
            throw new AdapterException("cannot read the recording " + outFile + ": " + e.getMessage());
        }
    }

    private static long[] read(Path file, int width, boolean memh) throws IOException, AdapterException {
        if (!memh) {
            return VectorFiles.elements(Files.readAllBytes(file), width);
        }
        List<String> lines = Files.readAllLines(file);
        long[] values = new long[(int) lines.stream().filter(l -> !l.isBlank() && !l.startsWith("//")).count()];
        int i = 0;
        int lineNumber = 0;
        for (String line : lines) {
            lineNumber++;
            if (line.isBlank() || line.startsWith("//")) {
                continue;
            }
            try {
                values[i++] = Long.parseUnsignedLong(line.strip(), 16);
            } catch (NumberFormatException e) {
                throw new AdapterException(file + ":" + lineNumber + ": not a hex value: '" + line.strip() + "'");
            }
        }
        return values;
    }
}
