package convcert.suite.runner;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.suite.model.InputMap;

/** Where an exhaustive case's mismatches are counted: the input map of a source format's fields. */
public final class InputCells {

    private InputCells() {
    }

    /** A counter for this source, or null where the source has no sign, exponent and fraction fields (integers, tapered). */
    public static InputMap.Counter counter(Format source) {
        boolean binary = source.layout() == Layout.IEEE || source.layout() == Layout.IEEE_FN;
        return binary && source.width() == 1 + source.exponentBits() + source.mantissaBits()
                ? new InputMap.Counter(source.exponentBits(), source.mantissaBits(), source.bias(), source.layout() == Layout.IEEE)
                : null;
    }
}
