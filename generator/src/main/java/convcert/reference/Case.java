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

    /**
     * The state this call selects, as case names and manifests say it: nosat, sat, wrap, or sat-keepnan (the
     * destination's sat_nan bit keeps NaN, e.g. CTRL[50]=1 for Ascend C fp8); a P3109 projection's state is its
     * saturation mode (satfinite, satpropagate, satnone).
     */
    public String stateLabel() {
        if (form.projection()) {
            return form.tableName();
        }
        boolean keepNan = saturation() == Saturation.SAT
                && conversion.to().satNanBit() != null && ctrl.bit(conversion.to().satNanBit()) == 1;
        return saturation().tableName() + (keepNan ? "-keepnan" : "");
    }

    /** "float->half rn nosat" plus the CTRL bits when they matter. */
    public String describe() {
        return conversion.pairName() + " " + rounding.suffix() + " " + form.tableName() + " [CTRL " + ctrl
                + " -> " + saturation().tableName() + "]";
    }
}
