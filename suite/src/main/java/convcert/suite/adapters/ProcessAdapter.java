package convcert.suite.adapters;

import convcert.reference.BlockConverter;
import convcert.spec.VectorBytes;
import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.BlockOperations;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.spi.FlagOperations;
import convcert.spi.MemoryCase;
import convcert.spi.MemoryOperations;
import convcert.spi.PackedOperations;
import convcert.spi.RandomOperations;
import convcert.spi.ScaleOperations;
import convcert.vectors.BlockLayout;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.VectorFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Any executable that speaks the batch protocol of suite/ADAPTERS.md on stdin/stdout: a text
 * handshake that states capabilities, then per batch a text header and little-endian payloads.
 * A device that says SHARED gets its value batches in shared memory instead (SharedMemory, in two
 * slots: PackedOperations), the pipe carrying a line per batch; so does convcert-host, which the native
 * adapter runs. A crash, hang, garbage answer or wrong count fails the case; the process is restarted
 * for the next. Options: cmd=COMMAND LINE (split on spaces), dir=WORKING DIRECTORY (default: where
 * convcert runs).
 */
public final class ProcessAdapter implements ConverterAdapter, MemoryOperations,
        BlockOperations, FlagOperations, RandomOperations, ScaleOperations, PackedOperations {

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
            // A relative command means what it means in the user's shell: the default directory is where
            // convcert runs, not convcert's own tree (an installed convcert lives elsewhere).
            Path dir = Path.of(options.getOrDefault("dir", "")).toAbsolutePath();
            DeviceProcess.requireExecutable(command.getFirst(), dir);
            ProcessAdapter adapter = new ProcessAdapter(command, dir, context, null, Identity.ofCommand(command, dir));
            try {
                adapter.start();
            } catch (DeviceDidNotStart e) {
                adapter.startFailure = e.getMessage(); // every case reports it: a broken device is a failed run
            }
            return adapter;
        }
    }

    private final List<String> command;
    private final Path directory;
    private final AdapterContext context;
    /** convcert-host (the native adapter): the memory is the command's last argument at each start. */
    private final boolean host;
    /** The memory value batches travel through: always for convcert-host, after SHARED for a device; else null. */
    private SharedMemory shared;
    /** Packed batches started and not yet finished, oldest first: their slots, counts and output widths. */
    private final ArrayDeque<int[]> inFlight = new ArrayDeque<>();
    private final String identity;
    /** The running device, or null (not yet started, or stopped after a failure). */
    private DeviceProcess device;
    /** What the running device said in its handshake. */
    private Handshake said = Handshake.NONE;
    /** Why the first start failed (the device ran but did not complete the handshake), or null. */
    private String startFailure;
    /** The case whose answer was read last: extra bytes after it are its fault. */
    private String lastCase = "the handshake";

    /** The device started but did not complete the handshake: reported per case, not as a usage error. */
    private static final class DeviceDidNotStart extends AdapterException {
        DeviceDidNotStart(String message) {
            super(message);
        }
    }

    /** shared: the memory of convcert-host, whose file is the command's last argument at each start; else null (a device may say SHARED). */
    ProcessAdapter(List<String> command, Path directory, AdapterContext context, SharedMemory shared, String identity) {
        this.command = command;
        this.directory = directory;
        this.context = context;
        this.shared = shared;
        this.host = shared != null;
        this.identity = identity;
    }

    /** Starts the device and reads its handshake, with the batch timeout as the handshake's deadline. */
    void start() throws AdapterException {
        List<String> launch = new ArrayList<>(command);
        inFlight.clear();
        if (!host && shared != null) { // a restarted device maps a new file, if it says SHARED again
            shared.close();
            shared = null;
        }
        if (host) {
            try {
                launch.add(shared.renew().toString());
            } catch (IOException e) {
                throw new AdapterException("cannot make the memory convcert-host shares: " + e.getMessage());
            }
        }
        DeviceProcess started = DeviceProcess.start(launch, directory, context.batchTimeoutMillis());
        device = started;
        lastCase = "the handshake";
        AtomicBoolean handshaking = started.deadline();
        try {
            started.write("CONVCERT 1\n");
            started.flush();
            Handshake read;
            try {
                read = Handshake.read(started);
            } catch (Handshake.Refused e) {
                stop();
                throw new DeviceDidNotStart(e.getMessage());
            }
            if (read.shared() && !host) {
                share(started);
            }
            handshaking.set(false);
            if (shared != null) {
                shared.unlink(); // mapped by the device now: nothing to leave behind
            }
            said = read;
        } catch (IOException e) {
            AdapterException f = started.failure("handshake failed: " + e.getMessage());
            stop();
            throw new DeviceDidNotStart(f.getMessage());
        } catch (AdapterException e) {
            stop();
            throw e instanceof DeviceDidNotStart ? e : new DeviceDidNotStart("handshake: " + e.getMessage());
        }
    }

    /**
     * A device that said SHARED is given a memory file (SHARED PATH CAPACITY) and maps it ('OK'); one that
     * answers ERR keeps the pipes. Within the handshake's deadline.
     */
    private void share(DeviceProcess started) throws IOException, AdapterException {
        SharedMemory memory = new SharedMemory();
        started.write("SHARED " + memory.renew() + " " + SharedMemory.CAPACITY + "\n");
        started.flush();
        String answer = started.readLine();
        if (answer.equals("OK")) {
            shared = memory;
            return;
        }
        memory.close();
        if (!answer.startsWith("ERR")) {
            throw new AdapterException("expected 'OK' or 'ERR <message>' after SHARED, got '" + DeviceProcess.printable(answer) + "'");
        }
    }

    @Override
    public String identity() {
        return identity;
    }

    /** Why the device did not start at its creation, or null. */
    String startFailure() {
        return startFailure;
    }

    @Override
    public List<Capability> capabilities() {
        // A device that never started still owes an answer for every case: each fails with why.
        return startFailure != null ? List.of(new Capability("*", "*", "*", "*")) : said.capabilities();
    }

    /** Starts the device again after a failure; a device that never started is not retried. */
    private void ensureRunning() throws AdapterException {
        if (startFailure != null) {
            throw new AdapterException("the device did not start: " + startFailure);
        }
        if (device == null || !device.alive()) {
            stop();
            start();
        }
        if (device.available() > 0) {
            throw failure(device.available() + " bytes beyond the answer to " + lastCase);
        }
    }

    @Override // whether the device said FLAGS in its handshake: each answer then ends with a flags byte per element
    public boolean reportsFlags() {
        return said.flags();
    }

    @Override // whether the device said RANDOM in its handshake: stochastic batches then carry random bits
    public boolean takesRandomBits() {
        return said.random();
    }

    private static String header(CaseKey c, int count) {
        return "BATCH " + c.from() + " " + c.to() + " " + c.rounding() + " " + c.state() + " " + c.form() + " "
                + c.ctrlField() + " " + count + "\n";
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        convert(c, inputs, null, "-", outputs, null, count); // a FLAGS device's flags are read all the same, and dropped
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, byte[] flagsOut, int count) throws AdapterException {
        convert(c, inputs, null, "-", outputs, flagsOut, count);
    }

    @Override // whether the device said SCALE in its handshake: scaled batches then carry scales
    public boolean takesScales() {
        return said.scale();
    }

    @Override // a stochastic case's BATCH: after the input elements, each element's random bits as a u32
    public void convert(CaseKey c, long[] inputs, long[] random, long[] outputs, int count) throws AdapterException {
        convert(c, inputs, random, "random", outputs, null, count);
    }

    @Override // a scaled case's BATCH: after the input elements, each element's scale (its lane bits) as a u32
    public void convertScaled(CaseKey c, long[] inputs, long[] scales, long[] outputs, int count) throws AdapterException {
        convert(c, inputs, scales, "scale", outputs, null, count);
    }

    /** laneName: "random", "scale" or "-" (none); lane: its values, or null. */
    private void convert(CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs, byte[] flagsOut, int count)
            throws AdapterException {
        ensureRunning();
        if (count == 0) {
            settle(c, header(c, 0));
            return;
        }
        int inWidth = context.widthOf(c.from());
        int outWidth = context.widthOf(c.to());
        if (shared != null) {
            call(c, inputs, lane, laneName, outputs, flagsOut, count, VectorBytes.of(inWidth), VectorBytes.of(outWidth));
            return;
        }
        int outBytes = count * VectorBytes.of(outWidth);
        byte[] payload = VectorFiles.pack(inputs, count, inWidth);
        if (lane != null) { // the random bits or scales after the values, a u32 each
            payload = ByteBuffer.allocate(payload.length + 4 * count).put(payload).put(VectorFiles.pack(lane, count, 32)).array();
        }
        boolean flags = said.flags();
        byte[] result = exchange(c, header(c, count), payload, count,
                flags ? outBytes + count : outBytes, flags ? "values and flags" : "values");
        VectorFiles.unpack(flags ? Arrays.copyOf(result, outBytes) : result, outWidth, outputs, count);
        if (flags && flagsOut != null) {
            System.arraycopy(result, outBytes, flagsOut, 0, count);
        }
    }

    /**
     * A CALL of convcert-host: the inputs (and lane values) packed into the shared memory, the outputs, the
     * guard after them and the flags poisoned, one header line, 'OK count' back, the guard checked, the
     * outputs (and flags) read.
     */
    private void call(CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs, byte[] flagsOut, int count,
                      int inBytes, int outBytes) throws AdapterException {
        shared.putInputs(inputs, lane, count, inBytes);
        shared.poisonOutputs(0, count, outBytes);
        try {
            device.write(callLine(c, count, inBytes, outBytes, laneName, 0));
            device.flush();
            String answer = device.readLine();
            lastCase = c.name();
            if (answer.startsWith("ERR ")) {
                throw new AdapterException(DeviceProcess.printable(answer.substring(4)));
            }
            if (!answer.equals("OK " + count)) {
                throw failure("expected 'OK " + count + "' or 'ERR <message>', got '" + DeviceProcess.printable(answer) + "'");
            }
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
        if (!shared.guardIntact(0, count, outBytes)) {
            throw failure((host ? "the library" : "the device") + " wrote beyond the " + count + " outputs of the batch");
        }
        shared.getOutputs(outputs, said.flags() ? flagsOut : null, count, outBytes);
    }

    private static String callLine(CaseKey c, int count, int inBytes, int outBytes, String lane, int slot) {
        return "CALL " + c.from() + " " + c.to() + " " + c.rounding() + " " + c.state() + " " + c.form() + " "
                + c.ctrlField() + " " + count + " " + inBytes + " " + outBytes + " " + lane + " " + slot + "\n";
    }

    @Override
    public boolean packed() {
        return shared != null;
    }

    @Override
    public int slotCapacity() {
        return SharedMemory.CAPACITY;
    }

    @Override
    public ByteBuffer inputs(int slot) {
        return shared.slot(slot, false).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public ByteBuffer outputs(int slot) {
        return shared.slot(slot, true).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A CALL for a slot the suite filled, not waited for; a stopped device is not restarted here (the batch of 0 does). */
    @Override
    public void start(CaseKey c, int slot, int count) throws AdapterException {
        if (device == null || !device.alive() || shared == null) {
            throw failure("the device is not running");
        }
        if (slot < 0 || slot >= SLOTS || count < 1 || count > SharedMemory.CAPACITY
                || inFlight.stream().anyMatch(f -> f[0] == slot)) {
            throw new AdapterException("slot " + slot + " with " + count + " elements cannot be started now");
        }
        int inBytes = VectorBytes.of(context.widthOf(c.from()));
        int outBytes = VectorBytes.of(context.widthOf(c.to()));
        shared.poisonGuard(slot, count, outBytes);
        try {
            device.write(callLine(c, count, inBytes, outBytes, "-", slot));
            device.flush();
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
        inFlight.addLast(new int[] {slot, count, outBytes});
    }

    /** Reads the oldest batch's answer, 'OK count', and checks the guard after its outputs. */
    @Override
    public void finish(CaseKey c, int slot) throws AdapterException {
        int[] oldest = inFlight.pollFirst();
        if (oldest == null || oldest[0] != slot) {
            throw new AdapterException("slot " + slot + " is not the oldest batch in flight");
        }
        try {
            String answer = device.readLine();
            lastCase = c.name();
            if (answer.startsWith("ERR ")) {
                throw new AdapterException(DeviceProcess.printable(answer.substring(4)));
            }
            if (!answer.equals("OK " + oldest[1])) {
                throw failure("expected 'OK " + oldest[1] + "' or 'ERR <message>', got '" + DeviceProcess.printable(answer) + "'");
            }
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
        if (!shared.guardIntact(slot, oldest[1], oldest[2])) {
            throw failure((host ? "the library" : "the device") + " wrote beyond the " + oldest[1] + " outputs of the batch");
        }
    }

    /**
     * The batch of 0 elements convcert sends after a case's last batch: answered 'OK 0' (or 'ERR ...')
     * with nothing before or after it, it shows the device has nothing pending; anything else the device
     * sent since its last answer fails the case it belongs to.
     */
    private void settle(CaseKey c, String header) throws AdapterException {
        if (shared != null && header.startsWith("BATCH ")) {
            header = "CALL " + header.substring(header.indexOf(' ') + 1).replaceFirst(" 0\n$", " 0 1 1 - 0\n");
        }
        try {
            device.write(header);
            device.flush();
            String answer = device.readLine();
            if (!(answer.equals("OK 0") || answer.startsWith("ERR")) || device.available() > 0) {
                throw failure("bytes after the answer to " + c.name() + ": '" + DeviceProcess.printable(answer) + "'"
                        + (device.available() > 0 ? " and " + device.available() + " more" : ""));
            }
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
    }

    /** BLOCKS batch (suite/ADAPTERS.md): count blocks, each value in its format's bytes. */
    @Override
    public void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        if (host) {
            throw new AdapterException("the native ABI (convcert_dut.h) converts values, not blocks");
        }
        ensureRunning();
        if (count == 0) {
            settle(c, "BLOCKS " + c.from() + " " + c.to() + " " + c.rounding() + " 0\n");
            return;
        }
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
            device.write(header);
            device.output().write(payload);
            device.flush();
            lastCase = c.name();
            expectOk(device.readLine(), count, unit);
            byte[] result = device.readBytes(answerBytes);
            if (result.length != answerBytes) {
                throw failure("short payload: " + result.length + " of " + answerBytes + " bytes");
            }
            int extra = device.available();
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
        return said.checksAlignment();
    }

    @Override
    public List<String> memoryCapabilities() {
        return said.memory();
    }

    /**
     * MEMORY batch (suite/ADAPTERS.md): the distinct memory images once, then per vector pointer,
     * offset, image index and data; the answer gives per vector a length (-1: refused) and bytes.
     */
    @Override
    public void run(MemoryCase c, long[] pointers, long[] offsets, byte[][] memories, byte[][] data,
                    byte[][] results, int count) throws AdapterException {
        ensureRunning();
        try {
            MemoryBatch.write(device.output(), c, pointers, offsets, memories, data, count);
            device.flush();
            lastCase = c.name();
            expectOk(device.readLine(), count, "results");
            MemoryBatch.read(device, c, results, count);
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
    }

    /** An answer to a batch of count: 'OK count', else the device's ERR or a protocol failure. */
    private void expectOk(String answer, int count, String unit) throws AdapterException {
        if (answer.startsWith("ERR")) {
            throw new AdapterException("the process answered: " + DeviceProcess.printable(answer));
        }
        if (!answer.equals("OK " + count)) {
            throw failure(answer.matches("OK \\d{1,18}") ? "returned " + answer.substring(3) + " " + unit + " for a batch of " + count
                    : "expected 'OK <count>' or 'ERR <message>', got '" + DeviceProcess.printable(answer) + "'");
        }
    }

    private AdapterException failure(String what) {
        return device == null ? new AdapterException(what) : device.failure(what);
    }

    @Override
    public void recover() {
        stop();
    }

    /** Ends the device and every process it started. Synchronized: an interrupt's close and a failing batch's recovery may both ask. */
    private synchronized void stop() {
        DeviceProcess d = device;
        device = null;
        if (d != null) {
            d.stop();
        }
    }

    @Override
    public void close() {
        DeviceProcess d = device;
        if (d != null) {
            d.quit();
        }
        stop();
        if (shared != null) {
            shared.close();
        }
    }
}
