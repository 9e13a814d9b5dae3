package convcert.suite.adapters;

import convcert.spec.VectorBytes;
import convcert.spi.AdapterException;
import convcert.vectors.VectorFiles;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A device under test's process: started under convcert-spawn (NativeHelpers), which makes it a
 * process group of its own and ends it and every process it started when convcert is gone, SIGKILL
 * included (without a C compiler, under setsid alone: a group, no watchdog); its stdout read a line
 * or a payload at a time, the end of its stderr kept for failure messages.
 */
final class DeviceProcess {

    private static final int MAX_LINE = 1024;
    /** A traceback's last lines hold the exception: quote that many, each made printable. */
    static final int STDERR_LINES = 12;

    /** setsid(1) where the system has it (Linux): the device then leads a process group of its own. */
    private static final String SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .filter(f -> Files.isExecutable(Path.of(f))).findFirst().orElse(null);

    private final Process process;
    /** Whether the process leads a process group of its own, which killGroup ends. */
    private final boolean group;
    private final InputStream in;
    private final OutputStream out;
    private final StderrTail stderr;
    private final long deadlineMillis;
    /** Set when a deadline ended the device before it answered. */
    private volatile boolean expired;
    private final AtomicBoolean stopped = new AtomicBoolean();

    private DeviceProcess(Process process, boolean group, long deadlineMillis) {
        this.process = process;
        this.group = group;
        this.deadlineMillis = deadlineMillis;
        in = new BufferedInputStream(process.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
        stderr = new StderrTail(process.getErrorStream());
        // When the device exits, its process group goes too: a child still holding the pipe would
        // otherwise keep a read waiting until the batch timeout.
        process.onExit().thenRun(this::killGroup);
    }

    /** Starts command in directory; deadlineMillis: how long an answer a deadline waits for may take. */
    static DeviceProcess start(List<String> command, Path directory, long deadlineMillis) throws AdapterException {
        List<String> launch = new ArrayList<>();
        Path spawn = NativeHelpers.spawn();
        if (spawn != null || SETSID != null) {
            launch.add(spawn != null ? spawn.toString() : SETSID);
        }
        launch.addAll(command);
        try {
            return new DeviceProcess(new ProcessBuilder(launch).directory(directory.toFile()).start(), launch.size() > command.size(),
                    deadlineMillis);
        } catch (IOException e) {
            throw new AdapterException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
        }
    }

    /** A program that cannot be started at all is one usage error, not an adapter failure per case. */
    static void requireExecutable(String program, Path dir) throws AdapterException {
        boolean found;
        if (program.contains("/")) {
            found = Files.isExecutable(dir.resolve(program)) && !Files.isDirectory(dir.resolve(program));
        } else {
            found = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                    .filter(p -> !p.isEmpty()).map(p -> Path.of(p, program))
                    .anyMatch(p -> Files.isExecutable(p) && !Files.isDirectory(p));
        }
        if (!found) {
            throw new AdapterException("cannot run '" + program + "': " + (program.contains("/")
                    ? "no executable file " + dir.resolve(program).normalize() : "no such program on PATH"));
        }
    }

    /** Ends the device unless done() comes first within the deadline: for an answer no batch timeout covers. */
    AtomicBoolean deadline() {
        AtomicBoolean waiting = new AtomicBoolean(true);
        CompletableFuture.delayedExecutor(deadlineMillis, TimeUnit.MILLISECONDS).execute(() -> {
            if (waiting.get()) { // ending the device ends the read
                expired = true;
                killGroup();
                process.destroyForcibly();
            }
        });
        return waiting;
    }

    boolean alive() {
        return process.isAlive();
    }

    void write(String line) throws IOException {
        out.write(line.getBytes(StandardCharsets.US_ASCII));
    }

    OutputStream output() {
        return out;
    }

    void flush() throws IOException {
        out.flush();
    }

    /** One line of the device's output, without its newline. */
    String readLine() throws IOException, AdapterException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw failure(expired ? "no answer within " + deadlineMillis + " ms" + (line.size() == 0
                        ? " (does the device flush its output after each line? to a pipe, stdout is block-buffered)"
                        : " (the line so far: '" + printable(line.toString(StandardCharsets.ISO_8859_1)) + "')")
                        : line.size() == 0 ? "the process closed its output" : "output ended inside a line");
            }
            if (line.size() >= MAX_LINE) {
                throw failure("garbage: a line longer than " + MAX_LINE + " bytes");
            }
            line.write(c);
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Up to n bytes, fewer only when the device's output ended. */
    byte[] readBytes(int n) throws IOException {
        return in.readNBytes(n);
    }

    /** Bytes the device has sent and no one asked for; 0 once it is gone. */
    int available() {
        try {
            return in.available();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * A BATCH of values over the pipe: the inputs (and lane values, a u32 each after them) packed in their
     * widths, the answer's values (and a flags byte per element, where the device said FLAGS) unpacked.
     */
    void values(String header, long[] inputs, long[] lane, long[] outputs, boolean flags, byte[] flagsOut, int count,
                int inWidth, int outWidth) throws IOException, AdapterException {
        int outBytes = count * VectorBytes.of(outWidth);
        byte[] payload = VectorFiles.pack(inputs, count, inWidth);
        if (lane != null) {
            payload = ByteBuffer.allocate(payload.length + 4 * count).put(payload).put(VectorFiles.pack(lane, count, 32)).array();
        }
        byte[] result = exchange(header, payload, count, flags ? outBytes + count : outBytes,
                flags ? "values and flags" : "values");
        VectorFiles.unpack(flags ? Arrays.copyOf(result, outBytes) : result, outWidth, outputs, count);
        if (flags && flagsOut != null) {
            System.arraycopy(result, outBytes, flagsOut, 0, count);
        }
    }

    /** Sends a batch's header and payload, then reads 'OK count' and exactly answerBytes bytes (or 'ERR message'). */
    byte[] exchange(String header, byte[] payload, int count, int answerBytes, String unit) throws IOException, AdapterException {
        write(header);
        output().write(payload);
        flush();
        String answer = readLine();
        expectOk(answer, count, unit);
        byte[] result = readBytes(answerBytes);
        if (result.length != answerBytes) {
            throw failure(String.format("a short answer: '%s', then %,d of the %,d bytes of its %s", printable(answer),
                    result.length, answerBytes, unit));
        }
        int extra = available();
        if (extra > 0) {
            throw failure(extra + " bytes beyond the answer to this batch");
        }
        return result;
    }

    /** An answer to a batch of count: 'OK count', else the device's ERR or a protocol failure. */
    void expectOk(String answer, int count, String unit) throws AdapterException {
        if (answer.startsWith("ERR")) {
            throw new AdapterException("the process answered: " + printable(answer));
        }
        if (!answer.equals("OK " + count)) {
            throw failure(answer.matches("OK \\d{1,18}") ? "returned " + answer.substring(3) + " " + unit + " for a batch of " + count
                    : "expected 'OK <count>' or 'ERR <message>', got '" + printable(answer) + "'");
        }
    }

    private static final String[] SIGNALS = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
        "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    /** convcert-spawn reports a device killed by signal N as 128 + N: " (killed by signal 11, SIGSEGV)". */
    static String signal(int code) {
        int n = code - 128;
        return n <= 0 || n > 64 ? "" : " (killed by signal " + n + (n < SIGNALS.length ? ", " + SIGNALS[n] : "") + ")";
    }

    /** A failure message with the process's exit status and the end of its stderr, when it died. */
    AdapterException failure(String what) {
        StringBuilder b = new StringBuilder(what);
        try {
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                b.append("; the process exited with code ").append(process.exitValue()).append(signal(process.exitValue()));
                stderr.awaitEnd(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String tail = stderr.lastLines(STDERR_LINES);
        if (!tail.isBlank()) {
            b.append("; its stderr ends:\n").append(tail);
        }
        return new AdapterException(b.toString());
    }

    /** Asks the device to quit (QUIT), waits a second, then stops it whatever it does. */
    void quit() {
        if (process.isAlive()) {
            try {
                write("QUIT\n");
                flush();
                process.waitFor(1, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException | RuntimeException e) {
                // stop() below ends it either way (an interrupt may close while a batch is being written)
            }
        }
        stop();
    }

    /** Ends the device and every process it started (its process group, or the descendants still known), once. */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        killGroup();
        children.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the device's process group (it leads one under convcert-spawn or setsid); nothing otherwise. */
    private void killGroup() {
        if (!group) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill(1): the descendants known to stop() are ended one by one instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Text from the device made printable: control and non-ASCII characters as \xNN, at most about 200 characters. */
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
}
