package convcert.suite.adapters;

import convcert.spi.AdapterException;
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
