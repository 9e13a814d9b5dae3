package convcert.suite.runner;

import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.suite.model.FirstMismatch.Shown;

/** A bit pattern of a format as a mismatch shows it: the reference's hex and reading of it. */
final class Shows {

    private Shows() {
    }

    static Shown of(FormatCodec codec, long bits) {
        return new Shown(Values.hex(codec, bits), Values.reading(codec, bits));
    }
}
