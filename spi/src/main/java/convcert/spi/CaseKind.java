package convcert.spi;

/**
 * What kind of case a key names, read from its state word: a block of a block-scaled format ("block"), an
 * OpenCL memory function ("memory"), or a conversion (every other state: a saturation state such as nosat,
 * sat or wrap). The words stay what the manifest, case names and the process protocol carry; code compares
 * kinds (or matches a {@link CaseId}), never the words.
 */
public enum CaseKind {
    CONVERSION(null), BLOCK("block"), MEMORY("memory");

    private final String state;

    CaseKind(String state) {
        this.state = state;
    }

    /** The state word a case of this kind carries (null for a conversion, whose state is its saturation). */
    public String state() {
        return state;
    }

    /** The kind of a case with this state word. */
    public static CaseKind of(String state) {
        return BLOCK.state.equals(state) ? BLOCK : MEMORY.state.equals(state) ? MEMORY : CONVERSION;
    }
}
