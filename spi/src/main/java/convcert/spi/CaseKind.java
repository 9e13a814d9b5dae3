package convcert.spi;

/**
 * What kind of case a key names, read from its state word: a block of a block-scaled format ("block"), a
 * whole tensor of such blocks ("tensor"), an OpenCL memory function ("memory"), or a conversion (every other state: a saturation state
 * such as nosat, sat or wrap). The words stay what the manifest, case names and the process protocol carry; code compares
 * kinds (or matches a {@link CaseId}), never the words.
 */
public enum CaseKind {
    CONVERSION(null), BLOCK("block"), TENSOR("tensor"), MEMORY("memory");

    private final String state;

    CaseKind(String state) {
        this.state = state;
    }

    /** The state word a case of this kind carries (null for a conversion, whose state is its saturation). */
    public String state() {
        return state;
    }

    /** Whether the case's vectors are blocks (a block, or a tensor as one block of its own). */
    public boolean ofBlocks() {
        return this == BLOCK || this == TENSOR;
    }

    /** The kind of a case with this state word. */
    public static CaseKind of(String state) {
        for (CaseKind k : values()) {
            if (k.state != null && k.state.equals(state)) {
                return k;
            }
        }
        return CONVERSION;
    }
}
