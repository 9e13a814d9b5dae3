package convcert.suite.adapters;

import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.PackedOperations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.stream.IntStream;

/**
 * Value batches through SharedMemory (suite/ADAPTERS.md, "Shared memory"): one CALL line per batch
 * naming a slot, 'OK count' back, the guard after the outputs checked. For convcert-host (a library)
 * and for a process device that said SHARED; a batch of long[] (with its lane values or flags) goes
 * through slot 0, packed batches through either slot, two in flight.
 */
final class SharedCalls implements AutoCloseable {

    private final SharedMemory memory;
    /** "the library" (convcert-host) or "the device": who wrote past the outputs. */
    private final String who;
    /** Packed batches started and not yet finished, oldest first: their slots, counts and output widths. */
    private final ArrayDeque<int[]> inFlight = new ArrayDeque<>();

    SharedCalls(SharedMemory memory, boolean library) {
        this.memory = memory;
        this.who = library ? "the library" : "the device";
    }

    /**
     * Gives a device that said SHARED a memory file (SHARED PATH CAPACITY): the calls once it answers
     * 'OK' (it mapped the file, which is then removed), null when it answers ERR (it keeps the pipes).
     */
    static SharedCalls offer(DeviceProcess device) throws IOException, AdapterException {
        SharedMemory memory = new SharedMemory();
        device.write("SHARED " + memory.renew() + " " + SharedMemory.CAPACITY + "\n");
        device.flush();
        String answer = device.readLine();
        memory.unlink();
        if (answer.equals("OK")) {
            return new SharedCalls(memory, false);
        }
        memory.close();
        if (!answer.startsWith("ERR")) {
            throw new AdapterException("expected 'OK' or 'ERR <message>' after SHARED, got '" + DeviceProcess.printable(answer) + "'");
        }
        return null;
    }

    SharedMemory memory() {
        return memory;
    }

    /** A new start: nothing in flight. */
    void reset() {
        inFlight.clear();
    }

    static String line(CaseKey c, int count, int inBytes, int outBytes, String lane, int slot) {
        return "CALL " + c.from() + " " + c.to() + " " + c.rounding() + " " + c.state() + " " + c.form() + " "
                + c.ctrlField() + " " + count + " " + inBytes + " " + outBytes + " " + lane + " " + slot + "\n";
    }

    /**
     * A batch of long[] in slot 0: the inputs (and lane values) packed into the memory, the outputs, the
     * guard after them and the flags poisoned, one line, 'OK count' back, the guard checked, the outputs
     * (and flags, where flags is not null) read.
     */
    void call(DeviceProcess device, CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs, byte[] flags,
              int count, int inBytes, int outBytes) throws AdapterException, IOException {
        memory.putInputs(inputs, lane, count, inBytes);
        memory.poisonOutputs(0, count, outBytes);
        device.write(line(c, count, inBytes, outBytes, laneName, 0));
        device.flush();
        answered(device, count, 0, outBytes);
        memory.getOutputs(outputs, flags, count, outBytes);
        unwritten(device, c, inputs, lane, laneName, outputs, count, inBytes, outBytes);
    }

    /**
     * An output that reads as the poison may be a value the device wrote or one it left alone (0xA5 is an
     * E4M3 value, 0xA5A5 a half): those elements are converted once more with the outputs filled with
     * 0x5A instead, and one that then reads as 0x5A was not written: it becomes ValueRunner's POISON, a
     * mismatch whatever the format (but a 64-bit one, where it is a value).
     */
    private void unwritten(DeviceProcess device, CaseKey c, long[] inputs, long[] lane, String laneName, long[] outputs,
                           int count, int inBytes, int outBytes) throws AdapterException, IOException {
        long poison = pattern(SharedMemory.POISON, outBytes);
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
        memory.putInputs(again, againLane, again.length, inBytes);
        memory.poisonOutputs(0, again.length, outBytes, SharedMemory.AGAIN);
        device.write(line(c, again.length, inBytes, outBytes, laneName, 0));
        device.flush();
        answered(device, again.length, 0, outBytes);
        long[] answers = new long[again.length];
        memory.getOutputs(answers, null, again.length, outBytes);
        for (int k = 0; k < doubtful.length; k++) {
            if (answers[k] == pattern(SharedMemory.AGAIN, outBytes)) {
                outputs[doubtful[k]] = 0xA5A5_A5A5_A5A5_A5A5L; // ValueRunner.POISON (adapters do not import the runner)
            }
        }
    }

    /** A byte repeated over an element of bytes bytes. */
    private static long pattern(byte b, int bytes) {
        long p = 0;
        for (int i = 0; i < bytes; i++) {
            p = p << 8 | (b & 0xFF);
        }
        return p;
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
        memory.poisonGuard(slot, count, outBytes);
        device.write(line(c, count, inBytes, outBytes, "-", slot));
        device.flush();
        inFlight.addLast(new int[] {slot, count, outBytes});
    }

    /** Reads the answer of the oldest batch in flight, which must be the slot's. */
    void finish(DeviceProcess device, int slot) throws AdapterException, IOException {
        int[] oldest = inFlight.pollFirst();
        if (oldest == null || oldest[0] != slot) {
            throw new AdapterException("slot " + slot + " is not the oldest batch in flight");
        }
        answered(device, oldest[1], slot, oldest[2]);
    }

    /** 'OK count' (or the device's ERR), then the guard after the slot's count outputs. */
    private void answered(DeviceProcess device, int count, int slot, int outBytes) throws AdapterException, IOException {
        String answer = device.readLine();
        if (answer.startsWith("ERR ")) {
            throw new AdapterException(DeviceProcess.printable(answer.substring(4)));
        }
        if (!answer.equals("OK " + count)) {
            throw device.failure("expected 'OK " + count + "' or 'ERR <message>', got '" + DeviceProcess.printable(answer) + "'");
        }
        if (!memory.guardIntact(slot, count, outBytes)) {
            throw device.failure(who + " wrote beyond the " + count + " outputs of the batch");
        }
    }

    @Override
    public void close() {
        memory.close();
    }
}
