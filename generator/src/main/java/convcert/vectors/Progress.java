package convcert.vectors;

import java.io.PrintWriter;

/**
 * A progress bar on stderr for long runs: redrawn in place on a terminal, a line per tenth
 * otherwise (CI logs), nothing for short runs.
 */
public final class Progress {

    private final PrintWriter err;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private int total;
    private int done;
    private long vectors;
    private long lastDraw;
    private int lastTenth;

    public Progress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    public static Progress silent() {
        return new Progress(null, false);
    }

    synchronized void start(int totalCases) {
        this.total = totalCases;
    }

    synchronized void caseDone(long count) {
        done++;
        vectors += count;
        if (err == null || total < 50) {
            return;
        }
        long now = System.nanoTime();
        if (terminal && now - lastDraw > 200_000_000L) {
            lastDraw = now;
            int width = 30;
            int filled = (int) ((long) width * done / total);
            err.printf("\r[%s%s] %3d%% %d/%d cases, %d vectors", "#".repeat(filled), ".".repeat(width - filled),
                    100 * done / total, done, total, vectors);
            err.flush();
        } else if (!terminal && 10 * done / total > lastTenth) {
            lastTenth = 10 * done / total;
            err.printf("generate: %d%% (%d/%d cases, %d vectors, %.1f s)%n", 100 * done / total, done, total, vectors,
                    (now - startNanos) / 1e9);
            err.flush();
        }
    }

    synchronized void finish() {
        if (err != null && terminal && total >= 50) {
            err.printf("\r%80s\r", "");
            err.flush();
        }
    }
}
