package convcert.reference;

import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.SaturationRule;
import convcert.spi.CtrlState;

/**
 * One conversion as an API call makes it: the pair, the rounding mode, the API form and the CTRL
 * bits; the saturation table has resolved them to an effective saturation behaviour.
 */
public record Case(Conversion conversion, Rounding rounding, Form form, CtrlState ctrl, SaturationRule rule) {

    public Saturation saturation() {
        return rule.effective();
    }

    /** "float->half rn nosat" plus the CTRL bits when they matter. */
    public String describe() {
        return conversion.pairName() + " " + rounding.suffix() + " " + form.tableName() + " [CTRL " + ctrl
                + " -> " + saturation().tableName() + "]";
    }
}
