package convcert.suite.adapters;

import convcert.reference.BlockConverter;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.vectors.BlockLayout;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.VectorFiles;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Any executable that speaks the batch protocol of suite/ADAPTERS.md on stdin/stdout: a text
 * handshake that states capabilities, then per batch a text header and little-endian payloads.
 * A crash, hang, garbage answer or wrong count fails the case; the process is restarted for the next.
 * Options: cmd=COMMAND LINE (split on spaces), dir=WORKING DIRECTORY (default: the repository).
 */
public final class ProcessAdapter implements ConverterAdapter, convcert.spi.MemoryOperations,
        convcert.spi.BlockOperations {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "process";
        }

        @Override
        public String description() {
            return "an executable speaking the batch protocol on stdin/stdout (option cmd=...)";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) throws AdapterException {
            List<String> command = List.of(Adapters.required(options, "cmd", "process").split("\\s+"));
            Path dir = options.containsKey("dir") ? Path.of(options.get("dir")) : context.home();
            ProcessAdapter adapter = new ProcessAdapter(command, dir, context);
            try {
                adapter.start();
            } catch (DeviceDidNotStart e) {
                adapter.startFailure = e.getMessage(); // every case reports it: a broken device is a failed run
            }
            return adapter;
        }
    }

    private static final int MAX_LINE = 1024;
    /** A traceback's last lines hold the exception: quote that many, each made printable. */
    static final int STDERR_LINES = 12;

    private final List<String> command;
    private final Path directory;
    private final AdapterContext context;
    private Process process;
    private InputStream in;
    private OutputStream out;
    private StderrTail stderr;
    private List<Capability> capabilities = List.of();
    private List<String> memoryCapabilities = List.of();
    private boolean checksAlignment;
    /** Why the first start failed (the device ran but did not complete the handshake), or null. */
    private String startFailure;
    /** Set when the handshake's deadline ended the device. */
    private volatile boolean handshakeExpired;
    /** The case whose answer was read last: extra bytes after it are its fault. */
    private String lastCase = "the handshake";

    /** The device started but did not complete the handshake: reported per case, not as a usage error. */
    private static final class DeviceDidNotStart extends AdapterException {
        DeviceDidNotStart(String message) {
            super(message);
        }
    }

    ProcessAdapter(List<String> command, Path directory, AdapterContext context) {
        this.command = command;
        this.directory = directory;
        this.context = context;
    }

    /**
     * Starts the device in a session of its own (setsid, where the system has it), so that ending it
     * ends every process it started, even after it died. The handshake has the batch timeout as its
     * deadline.
     */
    private void start() throws AdapterException {
        List<String> launch = new ArrayList<>();
        if (SETSID != null) {
            launch.add(SETSID);
        }
        launch.addAll(command);
        try {
            process = new ProcessBuilder(launch).directory(directory.toFile()).start();
        } catch (IOException e) {
            throw new AdapterException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
        }
        in = new BufferedInputStream(process.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
        stderr = new StderrTail(process.getErrorStream());
        lastCase = "the handshake";
        Process started = process;
        // When the device exits, its process group goes too: a child still holding the pipe would
        // otherwise keep a read waiting until the batch timeout.
        started.onExit().thenRun(() -> killGroup(started));
        handshakeExpired = false;
        java.util.concurrent.atomic.AtomicBoolean handshaking = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.CompletableFuture.delayedExecutor(context.batchTimeoutMillis(),
                java.util.concurrent.TimeUnit.MILLISECONDS).execute(() -> {
                    if (handshaking.get()) { // the handshake's deadline: ending the device ends the read
                        handshakeExpired = true;
                        killGroup(started);
                        started.destroyForcibly();
                    }
                });
        try {
            out.write("CONVCERT 1\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            List<Capability> caps = new ArrayList<>();
            List<String> memory = new ArrayList<>();
            for (String line = readLine(); !line.equals("READY"); line = readLine()) {
                if (line.startsWith("MEM ")) {
                    memory.add(line.substring(4).strip());
                    continue;
                }
                if (line.equals("ALIGNMENT checked")) {
                    checksAlignment = true;
                    continue;
                }
                if (!line.startsWith("CAP ")) {
                    stop();
                    throw new DeviceDidNotStart("handshake: expected 'CAP FROM TO ROUNDING STATE', 'MEM CASE', "
                            + "'ALIGNMENT checked' or 'READY', got '" + printable(line) + "'");
                }
                try {
                    caps.add(Capability.parse(line.substring(4)));
                } catch (IllegalArgumentException e) {
                    stop();
                    throw new DeviceDidNotStart("handshake: " + e.getMessage());
                }
            }
            handshaking.set(false);
            capabilities = List.copyOf(caps);
            memoryCapabilities = List.copyOf(memory);
        } catch (IOException e) {
            AdapterException f = failure("handshake failed: " + e.getMessage());
            stop();
            throw new DeviceDidNotStart(f.getMessage());
        } catch (AdapterException e) {
            stop();
            throw e instanceof DeviceDidNotStart ? e : new DeviceDidNotStart("handshake: " + e.getMessage());
        }
    }

    /** setsid(1) where the system has it (Linux): the device then leads a process group of its own. */
    private static final String SETSID = java.util.stream.Stream.of("/usr/bin/setsid", "/bin/setsid")
            .filter(f -> java.nio.file.Files.isExecutable(Path.of(f))).findFirst().orElse(null);

    @Override
    public String identity() {
        return Identity.ofCommand(command, directory);
    }

    @Override
    public List<Capability> capabilities() {
        // A device that never started still owes an answer for every case: each fails with why.
        return startFailure != null ? List.of(new Capability("*", "*", "*", "*")) : capabilities;
    }

    /** Starts the device again after a failure; a device that never started is not retried. */
    private void ensureRunning() throws AdapterException {
        if (startFailure != null) {
            throw new AdapterException("the device did not start: " + startFailure);
        }
        if (process == null || !process.isAlive()) {
            stop();
            start();
        }
        int unsolicited = available();
        if (unsolicited > 0) {
            String after = lastCase;
            throw failure(unsolicited + " bytes beyond the answer to " + after);
        }
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        ensureRunning();
        int inWidth = context.widthOf(c.from());
        int outWidth = context.widthOf(c.to());
        String header = "BATCH " + c.from() + " " + c.to() + " " + c.rounding() + " " + c.state() + " " + c.form()
                + " " + c.ctrlField() + " " + count + "\n";
        byte[] result = exchange(c, header, VectorFiles.pack(inputs, count, inWidth), count,
                count * convcert.spec.VectorBytes.of(outWidth), "values");
        VectorFiles.unpack(result, outWidth, outputs, count);
    }

    /** BLOCKS batch (suite/ADAPTERS.md): count blocks, each value in its format's bytes. */
    @Override
    public void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        ensureRunning();
        BlockConverter block = BlockVectorFiles.converter(SuiteContext.referenceOf(context), c.from(), c.to(), c.rounding());
        BlockLayout in = BlockLayout.of(block, true);
        BlockLayout out = BlockLayout.of(block, false);
        String header = "BLOCKS " + c.from() + " " + c.to() + " " + c.rounding() + " " + count + "\n";
        byte[] result = exchange(c, header, in.pack(inputs, count), count, count * out.bytes(), "blocks");
        System.arraycopy(out.unpack(result), 0, outputs, 0, count * out.values());
    }

    /** Sends a batch, then reads 'OK count' and exactly answerBytes bytes (or 'ERR message'). */
    private byte[] exchange(CaseKey c, String header, byte[] payload, int count, int answerBytes, String unit)
            throws AdapterException {
        try {
            out.write(header.getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            String answer = readLine();
            lastCase = c.name();
            if (answer.startsWith("ERR")) {
                throw new AdapterException("the process answered: " + printable(answer));
            }
            String[] words = answer.split(" ");
            long returned;
            try {
                returned = words.length == 2 && words[0].equals("OK") ? Long.parseLong(words[1]) : -1;
            } catch (NumberFormatException e) {
                returned = -1;
            }
            if (returned < 0) {
                throw failure("expected 'OK <count>' or 'ERR <message>', got '" + printable(answer) + "'");
            }
            if (returned != count) {
                throw failure("returned " + returned + " " + unit + " for a batch of " + count);
            }
            byte[] result = readBytes(answerBytes);
            if (result.length != answerBytes) {
                throw failure("short payload: " + result.length + " of " + answerBytes + " bytes");
            }
            int extra = available();
            if (extra > 0) {
                throw failure(extra + " bytes beyond the answer to this batch");
            }
            return result;
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
    }

    @Override
    public boolean checksAlignment() {
        return checksAlignment;
    }

    @Override
    public List<String> memoryCapabilities() {
        return memoryCapabilities;
    }

    /**
     * MEMORY batch (suite/ADAPTERS.md): the distinct memory images once, then per vector pointer,
     * offset, image index and data; the answer gives per vector a length (-1: refused) and bytes.
     */
    @Override
    public void run(convcert.spi.MemoryCase c, long[] pointers, long[] offsets, byte[][] memories, byte[][] data,
                    byte[][] results, int count) throws AdapterException {
        ensureRunning();
        try {
            java.util.IdentityHashMap<byte[], Integer> images = new java.util.IdentityHashMap<>();
            List<byte[]> distinct = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (memories[i] != null && !images.containsKey(memories[i])) {
                    images.put(memories[i], distinct.size());
                    distinct.add(memories[i]);
                }
            }
            out.write(("MEMORY " + c.function() + " " + c.type() + " " + c.n() + " " + (c.rounding().isEmpty() ? "-" : c.rounding())
                    + " " + (c.toType().isEmpty() ? "-" : c.toType()) + " " + c.toN() + " " + count + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            java.io.DataOutputStream le = new java.io.DataOutputStream(out);
            writeInt(le, distinct.size());
            for (byte[] image : distinct) {
                writeInt(le, image.length);
                le.write(image);
            }
            for (int i = 0; i < count; i++) {
                writeLong(le, pointers[i]);
                writeLong(le, offsets[i]);
                writeInt(le, memories[i] == null ? -1 : images.get(memories[i]));
                writeInt(le, data[i] == null ? 0 : data[i].length);
                if (data[i] != null) {
                    le.write(data[i]);
                }
            }
            out.flush();
            String answer = readLine();
            lastCase = c.name();
            if (answer.startsWith("ERR")) {
                throw new AdapterException("the process answered: " + printable(answer));
            }
            if (!answer.equals("OK " + count)) {
                throw failure("expected 'OK " + count + "' or 'ERR <message>', got '" + printable(answer) + "'");
            }
            for (int i = 0; i < count; i++) {
                byte[] length = readBytes(4);
                if (length.length != 4) {
                    throw failure("short payload in the answer to " + c.name());
                }
                int n = (length[0] & 0xFF) | (length[1] & 0xFF) << 8 | (length[2] & 0xFF) << 16 | (length[3] & 0xFF) << 24;
                if (n < -1 || n > (1 << 24)) {
                    throw failure("garbage: result length " + n);
                }
                results[i] = n < 0 ? null : readBytes(n);
                if (results[i] != null && results[i].length != n) {
                    throw failure("short payload in the answer to " + c.name());
                }
            }
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
    }

    private static void writeInt(java.io.DataOutputStream out, int v) throws IOException {
        out.writeInt(Integer.reverseBytes(v));
    }

    private static void writeLong(java.io.DataOutputStream out, long v) throws IOException {
        out.writeLong(Long.reverseBytes(v));
    }

    /** A failure message with the process's exit status and the end of its stderr, when it died. */
    private AdapterException failure(String what) {
        StringBuilder b = new StringBuilder(what);
        if (process != null) {
            try {
                if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                    b.append("; the process exited with code ").append(process.exitValue());
                    stderr.awaitEnd(200);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String tail = stderr == null ? "" : stderr.lastLines(STDERR_LINES);
            if (!tail.isBlank()) {
                b.append("; its stderr ends:\n").append(tail);
            }
        }
        return new AdapterException(b.toString());
    }

    /** Up to n bytes, fewer only when the device's output ended. */
    private byte[] readBytes(int n) throws IOException {
        return in.readNBytes(n);
    }

    /** Bytes the device has sent and no one asked for; 0 once it is gone. */
    private int available() {
        try {
            return process == null ? 0 : in.available();
        } catch (IOException e) {
            return 0;
        }
    }

    private String readLine() throws IOException, AdapterException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw failure(handshakeExpired ? "no answer within " + context.batchTimeoutMillis() + " ms"
                        : line.size() == 0 ? "the process closed its output" : "output ended inside a line");
            }
            if (line.size() >= MAX_LINE) {
                throw failure("garbage: a line longer than " + MAX_LINE + " bytes");
            }
            line.write(c);
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char ch : s.toCharArray()) {
            b.append(ch >= 0x20 && ch < 0x7F ? String.valueOf(ch) : String.format("\\x%02x", (int) ch));
            if (b.length() > 200) {
                return b + "...";
            }
        }
        return b.toString();
    }

    @Override
    public void recover() {
        stop();
    }

    /** Ends the device's process group (setsid made the device its leader); nothing without setsid. */
    private static void killGroup(Process p) {
        if (SETSID == null) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-KILL", "--", "-" + p.pid()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill(1): the descendants known to stop() are ended one by one instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ends the device and every process it started (its process group, or the descendants still
     * known). Synchronized: an interrupt's close and a failing batch's recovery may both ask.
     */
    private synchronized void stop() {
        Process p = process;
        process = null;
        if (p == null) {
            return;
        }
        List<ProcessHandle> children = p.descendants().toList();
        killGroup(p);
        children.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        Process p = process;
        if (p != null && p.isAlive()) {
            try {
                out.write("QUIT\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                p.waitFor(1, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException | RuntimeException e) {
                // stop() below ends it either way (an interrupt may close while a batch is being written)
            }
        }
        stop();
    }

    /** Keeps the last few KB of the process's stderr for failure messages (and drains the pipe). */
    private static final class StderrTail {
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
            kept.forEach(l -> b.append(b.isEmpty() ? "" : "\n").append("  | ").append(printable(l)));
            return b.toString();
        }
    }
}
