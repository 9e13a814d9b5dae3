package convcert.suite.model;


/**
 * What kind of difference a mismatch is, judged from the values the two bit patterns stand for (not
 * from the distance between the patterns): the chart in the HTML report counts these. The last four
 * are the OpenCL memory cases' kinds. Reports spell a kind by its label (toString).
 */
public enum MismatchKind {
    NAN_SIGN("NaN encoding: sign"),
    NAN_QUIET("NaN encoding: quiet bit"),
    NAN_PAYLOAD("NaN encoding: payload"),
    NAN_VERSUS_NUMBER("NaN vs number"),
    NAN_WITHOUT_NAN("NaN to a format without NaN"),
    NAN_TO_INTEGER("NaN to integer"),
    SIGNED_ZERO("sign of zero"),
    SIGN("sign"),
    OVERFLOW("overflow / saturation"),
    WRAP_VERSUS_SATURATE("wrap vs saturate"),
    FLUSHED("subnormal vs zero (flush)"),
    ONE_STEP("one step (rounding)"),
    FEW_STEPS("2-16 steps"),
    OUT_OF_FORMAT("bits beyond the format's width"),
    FLAGS("exception flags"),
    OTHER("other"),
    WRONG_BYTES("wrong bytes"),
    ACCEPTED_MISALIGNED("accepted a misaligned vector"),
    ACCEPTED_SIZE_MISMATCH("accepted a size-mismatch vector"),
    UNANSWERED("no result (the adapter left it unwritten)");

    /**
     * What a runner puts for an output the implementation left unwritten: bits beyond the width of every
     * format narrower than 64 bits, classified UNANSWERED there.
     */
    public static final long UNWRITTEN = 0xA5A5_A5A5_A5A5_A5A5L;

    private final String label;

    MismatchKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** The kind a report names by this label, or null for a label convcert does not write. */
    public static MismatchKind fromLabel(String label) {
        for (MismatchKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }
}
