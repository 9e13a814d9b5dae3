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
import convcert.suite.model.LateOutput;
import convcert.vectors.BlockLayout;
import convcert.vectors.BlockVectorFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
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
    /** The value batches through shared memory: always for convcert-host, after SHARED for a device; else null. */
    private SharedCalls shared;
    private final String identity;
    /** The running device, or null (not yet started, or stopped after a failure). */
    private DeviceProcess device;
    /** What the running device said in its handshake. */
    private Handshake said = Handshake.NONE;
    /** Why the first start failed (the device ran but did not complete the handshake), or null. */
    private String startFailure;
    /** The case whose answer was read last: extra bytes after it are its fault. */
    private String lastCase = "the handshake";

    /**
     * shared: the memory of convcert-host, whose file is the command's last argument at each start; else null (a device may say SHARED).
     */
    ProcessAdapter(List<String> command, Path directory, AdapterContext context, SharedMemory shared, String identity) {
        this.command = command;
        this.directory = directory;
        this.context = context;
        this.shared = shared == null ? null : new SharedCalls(shared, true);
        this.host = shared != null;
        this.identity = identity;
    }

    /** Starts the device and reads its handshake, with the batch timeout as the handshake's deadline. */
    void start() throws AdapterException {
        List<String> launch = new ArrayList<>(command);
        if (!host && shared != null) { // a restarted device maps a new file, if it says SHARED again
            shared.close();
            shared = null;
        }
        try {
            if (host) {
                launch.add(shared.memory().renew().toString());
            }
            handshake(DeviceProcess.start(launch, directory, context.batchTimeoutMillis()));
        } catch (IOException e) {
            throw new AdapterException("cannot make the memory convcert-host shares: " + e.getMessage());
        } finally {
            if (host) {
                shared.memory().unlink(); // mapped by the host now, or never to be: nothing to leave behind
            }
        }
    }

    private void handshake(DeviceProcess started) throws AdapterException {
        device = started;
        lastCase = "the handshake";
        AtomicBoolean handshaking = started.deadline();
        try {
            started.write("CONVCERT 1\n");
            started.flush();
            Handshake read = Handshake.read(started);
            if (read.shared() && !host) {
                shared = SharedCalls.offer(started);
            }
            handshaking.set(false);
            if (shared != null) {
                shared.reset(read.flags());
            }
            said = read;
        } catch (Handshake.Refused e) {
            stop();
            throw new DeviceDidNotStart(e.getMessage());
        } catch (IOException e) {
            AdapterException f = started.failure("handshake failed: " + e.getMessage());
            stop();
            throw new DeviceDidNotStart(f.getMessage());
        } catch (AdapterException e) {
            stop();
            throw e instanceof DeviceDidNotStart ? e : new DeviceDidNotStart("handshake: " + e.getMessage());
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
        if (device.available() > 0) { // sent after the last case's answers: that case's failure, not this one's
            String why = failure(device.available() + " bytes beyond the answer to " + lastCase).getMessage();
            throw lastCase.equals("the handshake") ? new AdapterException(why) : new LateOutput(lastCase, why);
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
            piped(() -> shared.call(device, c, inputs, lane, laneName, outputs, said.flags() ? flagsOut : null, count,
                    inWidth, outWidth));
            lastCase = c.name();
            return;
        }
        lastCase = c.name();
        piped(() -> device.values(header(c, count), inputs, lane, outputs, said.flags(), flagsOut, count, inWidth, outWidth));
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
        return shared.slot(slot, false);
    }

    @Override
    public ByteBuffer outputs(int slot) {
        return shared.slot(slot, true);
    }

    /** A CALL for a slot the suite filled, not waited for; a stopped device is not restarted here (the batch of 0 does). */
    @Override
    public void start(CaseKey c, int slot, int count) throws AdapterException {
        piped(() -> shared().start(device, c, slot, count, VectorBytes.of(context.widthOf(c.from())),
                VectorBytes.of(context.widthOf(c.to()))));
    }

    /** Reads the oldest batch's answer, 'OK count', and checks the bytes next to the live areas. */
    @Override
    public void finish(CaseKey c, int slot) throws AdapterException {
        piped(() -> shared().finish(device, slot));
        lastCase = c.name();
    }

    private interface Piped {
        void run() throws IOException, AdapterException;
    }

    /** An exchange with the device, a broken pipe its failure. */
    private void piped(Piped exchange) throws AdapterException {
        try {
            exchange.run();
        } catch (IOException e) {
            throw failure("pipe broke: " + e.getMessage());
        }
    }

    private SharedCalls shared() throws AdapterException {
        if (device == null || shared == null) {
            throw failure("the device is not running");
        }
        return shared;
    }

    /**
     * The batch of 0 elements convcert sends after a case's last batch: answered 'OK 0' (or 'ERR ...')
     * with nothing before or after it, it shows the device has nothing pending; anything else the device
     * sent since its last answer fails the case it belongs to.
     */
    private void settle(CaseKey c, String header) throws AdapterException {
        if (shared != null && header.startsWith("BATCH ")) {
            header = SharedCalls.line(c, 0, 1, 1, "-", 0);
        }
        String zero = header;
        piped(() -> {
            device.write(zero);
            device.flush();
            String answer = device.readLine();
            if (!(answer.equals("OK 0") || answer.startsWith("ERR")) || device.available() > 0) {
                throw failure("bytes after the answer to " + c.name() + ": '" + DeviceProcess.printable(answer) + "'"
                        + (device.available() > 0 ? " and " + device.available() + " more" : ""));
            }
            if (shared != null) {
                shared.sweep(device);
            }
        });
    }

    /** BLOCKS batch (suite/ADAPTERS.md): count blocks, each value in its format's bytes; TENSORS: whole tensors so. */
    @Override
    public void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        if (host) {
            throw new AdapterException("the native ABI (convcert_dut.h) converts values, not blocks");
        }
        ensureRunning();
        BlockConverter block = BlockVectorFiles.converter(SuiteContext.referenceOf(context), c.from(), c.to(), c.rounding());
        String header = BlockLayout.batchLine(block) + count + "\n";
        if (count == 0) {
            settle(c, header);
            return;
        }
        BlockLayout in = BlockLayout.of(block, true);
        BlockLayout out = BlockLayout.of(block, false);
        lastCase = c.name();
        piped(() -> System.arraycopy(out.unpack(device.exchange(header, in.pack(inputs, count), count, count * out.bytes(),
                "blocks")), 0, outputs, 0, count * out.values()));
    }

    @Override
    public boolean checksAlignment() {
        return said.checksAlignment();
    }

    @Override // false where the device said SATURATION told: it takes the effective state, so each state runs once
    public boolean programsSaturation() {
        return !said.saturationTold();
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
        lastCase = c.name();
        piped(() -> {
            MemoryBatch.write(device.output(), c, pointers, offsets, memories, data, count);
            device.flush();
            device.expectOk(device.readLine(), count, "results");
            MemoryBatch.read(device, c, results, count);
        });
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
