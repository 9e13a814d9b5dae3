package convcert.suite.adapters;

import convcert.spec.VectorBytes;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.PackedOperations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Value batches through SharedMemory (suite/ADAPTERS.md, "Shared memory"): one CALL line per batch
 * naming a slot, 'OK count' back, the mapping around the batch checked. For convcert-host (a library)
 * and for a process device that said SHARED; a batch of long[] (with its lane values or flags) goes
 * through slot 0, packed batches through either slot, two in flight.
 */
final class SharedCalls implements AutoCloseable {

    private final SharedMemory memory;
    /** "the library" (convcert-host) or "the device": who wrote where it must not. */
    private final String who;
    /** Packed batches started and not yet finished, oldest first: their slots and counts. */
    private final ArrayDeque<int[]> inFlight = new ArrayDeque<>();
    /** The poison of long[] batches: drawn anew for each, from a seed the device cannot know. */
    private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
    /** Whether the device writes a flags byte per element of slot 0 (it said FLAGS). */
    private boolean flags;

    SharedCalls(SharedMemory memory, boolean library) {
        this.memory = memory;
        this.who = library ? "the library" : "the device";
    }

    /**
     * Gives a device that said SHARED a memory file (SHARED PATH CAPACITY): the calls once it answers
     * 'OK' (it mapped the file), null when it answers ERR (it keeps the pipes). The file is removed
     * whatever the device answers, or whether it answers at all.
     */
    static SharedCalls offer(DeviceProcess device) throws IOException, AdapterException {
        SharedMemory memory = new SharedMemory();
        boolean kept = false;
        try {
            device.write("SHARED " + memory.renew() + " " + SharedMemory.CAPACITY + "\n");
            device.flush();
            String answer = device.readLine();
            if (answer.equals("OK")) {
                kept = true;
                return new SharedCalls(memory, false);
            }
            if (!answer.startsWith("ERR")) {
                throw new AdapterException("expected 'OK' or 'ERR <message>' after SHARED, got '" + DeviceProcess.printable(answer) + "'");
            }
            return null;
        } finally {
            memory.unlink();
            if (!kept) {
                memory.close();
            }
        }
    }

    SharedMemory memory() {
        return memory;
    }

    /** A new start: nothing in flight; flags: whether the device writes slot 0's flags. */
    void reset(boolean flags) {
        inFlight.clear();
        this.flags = flags;
    }

    static String line(CaseKey c, int count, int inBytes, int outBytes, String lane, int slot) {
        return "CALL " + c.from() + " " + c.to() + " " + c.rounding() + " " + c.state() + " " + c.form() + " "
                + c.ctrlField() + " " + count + " " + inBytes + " " + outBytes + " " + lane + " " + slot + "\n";
    }

    /**
     * A batch of long[] in slot 0: the inputs (and lane values) packed into the memory, the outputs filled
     * with a poison drawn for this batch, one line, 'OK count' back, the mapping around the batch checked,
     * the outputs (and flags, where flagsOut is not null) read. Elements that still read as the poison are
     * asked again under another (unwritten, below). Widths in bits.
     */
    void call(DeviceProcess device, CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs, byte[] flagsOut,
              int count, int inWidth, int outWidth) throws AdapterException, IOException {
        int inBytes = VectorBytes.of(inWidth);
        int outBytes = VectorBytes.of(outWidth);
        long poison = poison(outWidth, outBytes);
        once(device, c, inputs, lane, laneName, count, inBytes, outBytes, poison);
        memory.getOutputs(outputs, flagsOut, count, outBytes);
        unwritten(device, c, inputs, lane, laneName, outputs, count, inBytes, outBytes, poison);
    }

    /**
     * A random element of outBytes bytes; one with a bit above a narrower format's width set (outWidth
     * below 8 x outBytes), which no answer can be, so an output reading as it was not written.
     */
    private long poison(int outWidth, int outBytes) {
        long p = outBytes == 8 ? random.nextLong() : random.nextLong() & ((1L << 8 * outBytes) - 1);
        return outWidth < 8 * outBytes ? p | 1L << (8 * outBytes - 1) : p;
    }

    private void once(DeviceProcess device, CaseKey c, long[] inputs, long[] lane, String laneName, int count, int inBytes,
                      int outBytes, long poison) throws AdapterException, IOException {
        memory.use(0, count, inBytes, outBytes, lane != null, flags);
        memory.putInputs(inputs, lane, count, inBytes);
        memory.poisonOutputs(count, outBytes, poison);
        device.write(line(c, count, inBytes, outBytes, laneName, 0));
        device.flush();
        answered(device, count);
    }

    /**
     * The poison is a random value, not derived from any expected value, so an output that reads as it
     * may be a value the device wrote or one it left alone: those elements are converted once more under
     * the poison with its lowest bit flipped, and one that then reads otherwise than before was not
     * written. It becomes ValueRunner's POISON, a mismatch whatever a format narrower than 64 bits
     * expects; a 64-bit output left unwritten fails the batch, since that pattern is a value there.
     * Which elements are asked again depends only on what the device wrote, never on what it should have.
     */
    private void unwritten(DeviceProcess device, CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs,
                           int count, int inBytes, int outBytes, long poison) throws AdapterException, IOException {
        int[] doubtful = IntStream.range(0, count).filter(i -> outputs[i] == poison).toArray();
        if (doubtful.length == 0) {
            return;
        }
        long[] again = new long[doubtful.length];
        long[] againLane = lane == null ? null : new long[doubtful.length];
        for (int k = 0; k < doubtful.length; k++) {
            again[k] = inputs[doubtful[k]];
            if (lane != null) {
                againLane[k] = lane[doubtful[k]];
            }
        }
        once(device, c, again, againLane, laneName, again.length, inBytes, outBytes, poison ^ 1);
        long[] answers = new long[again.length];
        memory.getOutputs(answers, null, again.length, outBytes);
        int left = 0;
        for (int k = 0; k < doubtful.length; k++) {
            if (answers[k] != poison) {
                outputs[doubtful[k]] = 0xA5A5_A5A5_A5A5_A5A5L; // ValueRunner.POISON (adapters do not import the runner)
                left++;
            }
        }
        if (left > 0 && outBytes == 8) {
            throw device.failure(who + " left " + left + " of " + count + " outputs unwritten");
        }
    }

    ByteBuffer slot(int slot, boolean outputs) {
        return memory.slot(slot, outputs).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A CALL for a slot the suite filled (its outputs poisoned by the suite), not waited for. */
    void start(DeviceProcess device, CaseKey c, int slot, int count, int inBytes, int outBytes)
            throws AdapterException, IOException {
        if (slot < 0 || slot >= PackedOperations.SLOTS || count < 1 || count > SharedMemory.CAPACITY
                || inFlight.stream().anyMatch(f -> f[0] == slot)) {
            throw new AdapterException("slot " + slot + " with " + count + " elements cannot be started now");
        }
        memory.use(slot, count, inBytes, outBytes, false, flags && slot == 0);
        device.write(line(c, count, inBytes, outBytes, "-", slot));
        device.flush();
        inFlight.addLast(new int[] {slot, count});
    }

    /** Reads the answer of the oldest batch in flight, which must be the slot's. */
    void finish(DeviceProcess device, int slot) throws AdapterException, IOException {
        int[] oldest = inFlight.pollFirst();
        if (oldest == null || oldest[0] != slot) {
            throw new AdapterException("slot " + slot + " is not the oldest batch in flight");
        }
        answered(device, oldest[1]);
    }

    /** 'OK count' (or the device's ERR), then the bytes next to every live area of the mapping. */
    private void answered(DeviceProcess device, int count) throws AdapterException, IOException {
        String answer = device.readLine();
        if (answer.startsWith("ERR ")) {
            throw new AdapterException(DeviceProcess.printable(answer.substring(4)));
        }
        if (!answer.equals("OK " + count)) {
            throw device.failure("expected 'OK " + count + "' or 'ERR <message>', got '" + DeviceProcess.printable(answer) + "'");
        }
        String stray = memory.stray(false);
        if (stray != null) {
            throw device.failure(who + " wrote at " + stray);
        }
    }

    /** After a case's last answer: every byte of the mapping outside the live areas, or an adapter failure. */
    void sweep(DeviceProcess device) throws AdapterException {
        String stray = memory.stray(true);
        if (stray != null) {
            throw device.failure(who + " wrote at " + stray);
        }
    }

    @Override
    public void close() {
        memory.close();
    }
}
