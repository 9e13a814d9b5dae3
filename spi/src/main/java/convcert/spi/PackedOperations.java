package convcert.spi;

import java.nio.ByteBuffer;

/**
 * Batches in memory the implementation reads and writes itself, in the elements' own widths (1, 2, 4 or 8
 * bytes, little-endian, as the native ABI packs them): an adapter that has such memory (a process device
 * or a shared library mapping a file with convcert, suite/ADAPTERS.md "Shared memory") implements this
 * beside ConverterAdapter. The suite then writes a batch's inputs straight into a slot, starts it, and
 * while the implementation converts it prepares the next batch in the other slot and checks the last;
 * no long[] lies between, and the pipe carries only a line per batch. Used for cases without a lane or
 * flags (the long[] calls remain for those and for every other kind of case).
 *
 * <p>Batches answer in the order they were started; a slot is not written again before its batch was
 * finished.
 */
public interface PackedOperations {

    /** Slots the suite may keep in flight. */
    int SLOTS = 2;

    /** Whether this instance offers packed batches now (a process device: whether it mapped the memory). */
    boolean packed();

    /** Elements a slot holds. */
    int slotCapacity();

    /** The slot's inputs: slotCapacity() elements of up to 8 bytes, little-endian, position 0. */
    ByteBuffer inputs(int slot);

    /** The slot's outputs, the same size; the suite poisons them before each batch. */
    ByteBuffer outputs(int slot);

    /** Starts converting the first count elements of the slot's inputs (returns without waiting). */
    void start(CaseKey c, int slot, int count) throws AdapterException;

    /** Waits until the slot's batch, the oldest one started, has been converted. */
    void finish(CaseKey c, int slot) throws AdapterException;
}
