package convcert.common;

import java.io.PrintWriter;

/**
 * The progress bar of long runs, on stderr: redrawn in place on a terminal (at most four times a
 * second), a line per tenth otherwise (CI logs). Two things are counted: the cases of a generation
 * ({@link #ofCases}: shown from 50 cases on) and the vectors of one long certification case
 * ({@link #ofVectors}). Parts of a case report from their own threads, so every method is synchronized.
 */
public final class Progress {

    private final PrintWriter out;
    private final boolean terminal;
    /** The case whose vectors are counted, or null when cases are. */
    private final String name;
    private final long startNanos = System.nanoTime();
    private long total;
    private long done;
    private long vectors;
    private long lastDraw;

    private Progress(PrintWriter out, boolean terminal, String name, long total) {
        this.out = out;
        this.terminal = terminal;
        this.name = name;
        this.total = total;
    }

    /** Counts the cases of a generation; the total comes with start. */
    public static Progress ofCases(PrintWriter err, boolean terminal) {
        return new Progress(err, terminal, null, 0);
    }

    /** Counts the vectors of one case. */
    public static Progress ofVectors(PrintWriter err, boolean terminal, String name, long total) {
        return new Progress(err, terminal, name, total);
    }

    public static Progress silent() {
        return new Progress(null, false, null, 0);
    }

    public synchronized void start(int totalCases) {
        this.total = totalCases;
    }

    /** A generated case with this many vectors. */
    public synchronized void caseDone(long count) {
        vectors += count;
        advance(1);
    }

    /** Vectors of the counted case. */
    public synchronized void batchDone(long count) {
        vectors += count;
        advance(count);
    }

    private boolean shown() {
        return out != null && (name != null || total >= 50);
    }

    private void advance(long units) {
        long before = done;
        done += units;
        if (!shown()) {
            return;
        }
        long now = System.nanoTime();
        boolean tenth = 10 * done / total > 10 * before / total;
        if ((terminal && now - lastDraw > 250_000_000L) || (!terminal && tenth)) {
            lastDraw = now;
            out.print(line((now - startNanos) / 1e9));
            out.flush();
        }
    }

    private String line(double seconds) {
        long percent = 100 * done / total;
        String bar = "#".repeat((int) (30 * done / total)) + ".".repeat(30 - (int) (30 * done / total));
        if (name == null) {
            return terminal ? String.format("\r[%s] %3d%% %d/%d cases, %d vectors", bar, percent, done, total, vectors)
                    : String.format("generate: %d%% (%d/%d cases, %d vectors, %.1f s)%n", percent, done, total, vectors,
                    seconds);
        }
        double eta = seconds * (total - done) / Math.max(1, done);
        return String.format("%s[%s] %3d%% %s %.0f M/s, %.0f s elapsed, about %.0f s to go%s", terminal ? "\r" : "", bar,
                percent, name, done / seconds / 1e6, seconds, eta, terminal ? "" : "\n");
    }

    /** Clears a bar drawn in place. */
    public synchronized void finish() {
        if (terminal && shown()) {
            out.printf("\r%100s\r", "");
            out.flush();
        }
    }
}
