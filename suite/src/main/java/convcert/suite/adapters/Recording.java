package convcert.suite.adapters;

import convcert.spec.Rounding;
import convcert.spec.Conversion;
import convcert.spec.Lane;
import convcert.spi.AdapterException;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.vectors.VectorFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One recording: inputs and outputs in recorded order. Batches usually ask for the inputs in that
 * order, so a cursor answers them; other orders fall back to a map built on first need.
 */
final class Recording {
    final long[] inputs;
    final long[] outputs;
    final byte[] flags; // ROUNDING-STATE.flags.bin beside the outputs, or null
    int cursor;
    Map<Long, Integer> byInput;

    Recording(long[] inputs, long[] outputs, byte[] flags) {
        this.inputs = inputs;
        this.outputs = outputs;
        this.flags = flags;
    }

    /** The recorded element of this input, or -1. */
    int answer(long input) {
        if (cursor < inputs.length && inputs[cursor] == input) {
            return cursor++;
        }
        if (byInput == null) {
            byInput = new HashMap<>(inputs.length * 2);
            for (int i = 0; i < inputs.length; i++) {
                byInput.putIfAbsent(inputs[i], i);
            }
        }
        return byInput.getOrDefault(input, -1);
    }

    /**
     * A case with a lane (rs's random bits, a scale) pairs each recorded input with its lane value, from
     * .random.bin or .scale.bin (.memh) beside the recording's inputs, or else the vector set's: the
     * operands the suite asks for.
     */
    static void withLaneValues(Conversion conversion, CaseKey c, long[] ins, Path inFile, boolean memh, Path vectors, int width)
            throws IOException, AdapterException {
        Lane lane = conversion.lane(Rounding.named(c.rounding()));
        if (lane == null) {
            return;
        }
        Path file = inFile != null ? Path.of(inFile.toString().replaceFirst("\\.in\\.(bin|memh)$", "." + lane + ".$1"))
                : vectors.resolve(CaseId.of(c).path() + VectorFiles.laneBin(lane));
        if (!Files.isRegularFile(file)) {
            throw new AdapterException("the recording of " + c.name() + " has no " + lane + " lane (" + file + ")");
        }
        long[] values = Recording.read(file, conversion.laneBits(Rounding.named(c.rounding())), inFile != null && memh);
        if (values.length != ins.length) {
            throw new AdapterException(file + " holds " + values.length + " " + lane + " values for " + ins.length + " inputs");
        }
        for (int i = 0; i < ins.length; i++) {
            ins[i] |= values[i] << width;
        }
    }

    /** A recorded file's elements: .bin little-endian, or .memh one hex value a line (comments // skipped). */
    static long[] read(Path file, int width, boolean memh) throws IOException, AdapterException {
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
            long value;
            try {
                value = Long.parseUnsignedLong(line.strip(), 16);
            } catch (NumberFormatException e) {
                throw new AdapterException(file + ":" + lineNumber + ": not a hex value: '" + line.strip() + "'");
            }
            if (width < 64 && value >>> width != 0) {
                throw new AdapterException(file + ":" + lineNumber + ": '" + line.strip() + "' is wider than " + width
                        + " bits");
            }
            values[i++] = value;
        }
        return values;
    }
}
