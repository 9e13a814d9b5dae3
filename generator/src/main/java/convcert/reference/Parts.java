package convcert.reference;

import java.util.stream.IntStream;

/** Splits a large batch over the machine's cores (Converter.applyParallel): parts run independently. */
final class Parts {

    /** Values per part below which splitting a batch costs more than it saves. */
    private static final int GRAIN = 1 << 14;

    interface Part {
        void run(int from, int count);
    }

    private Parts() {
    }

    /** Runs count values as parts of at least GRAIN values, one per core at most, in parallel. */
    static void run(int count, Part part) {
        int parts = Math.min(Runtime.getRuntime().availableProcessors(), count / GRAIN);
        if (parts <= 1) {
            part.run(0, count);
            return;
        }
        IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) count * p / parts);
            int to = (int) ((long) count * (p + 1) / parts);
            part.run(from, to - from);
        });
    }
}
