package convcert.suite.adapters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Keeps the last few KB of the process's stderr for failure messages (and drains the pipe). */
final class StderrTail {
    private final byte[] ring = new byte[4096];
    private long written;
    private final Thread drain;

    StderrTail(InputStream err) {
        drain = new Thread(() -> {
            byte[] buffer = new byte[1024];
            try {
                int n;
                while ((n = err.read(buffer)) > 0) {
                    synchronized (this) {
                        for (int i = 0; i < n; i++) {
                            ring[(int) (written++ % ring.length)] = buffer[i];
                        }
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "convcert-process-stderr");
        drain.setDaemon(true);
        drain.start();
    }

    /** Once the process has exited, lets the drain read what it wrote last (a crash message). */
    void awaitEnd(long millis) throws InterruptedException {
        drain.join(millis);
    }

    synchronized String tail() {
        int n = (int) Math.min(written, ring.length);
        byte[] last = new byte[n];
        for (int i = 0; i < n; i++) {
            last[i] = ring[(int) ((written - n + i) % ring.length)];
        }
        return new String(last, StandardCharsets.UTF_8);
    }

    /** The last non-blank lines, indented, each made printable; a line cut by the ring is dropped. */
    String lastLines(int count) {
        boolean cut = written > ring.length;
        List<String> lines = new ArrayList<>(List.of(tail().split("\\r?\\n")));
        if (cut && !lines.isEmpty()) {
            lines.removeFirst();
        }
        List<String> kept = lines.stream().filter(l -> !l.isBlank()).toList();
        kept = kept.subList(Math.max(0, kept.size() - count), kept.size());
        StringBuilder b = new StringBuilder();
        kept.forEach(l -> b.append(b.isEmpty() ? "" : "\n").append("  | ").append(DeviceProcess.printable(l)));
        return b.toString();
    }
}
