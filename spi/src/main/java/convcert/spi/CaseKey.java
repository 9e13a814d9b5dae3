package convcert.spi;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * One conversion case an adapter is asked to perform: the profile, the pair, the rounding suffix, the
 * effective saturation state (nosat, sat, wrap, sat-keepnan), and the API form and CTRL bits that
 * select that state, for implementations that program them. variant is empty for the primary way to
 * select the state and otherwise names the form and CTRL bits ("sat 60=1,48=0"): an implementation
 * that programs saturation is certified on every variant. {@link CaseId#of} types a key by its kind.
 */
public record CaseKey(String profile, String from, String to, String rounding, String state, String form,
                      Map<Integer, Integer> ctrl, String variant) {

    /** The form of a case that has none (a block, a tensor, a memory function): a protocol field is never empty. */
    public static final String NO_FORM = "-";

    public CaseKey {
        ctrl = Map.copyOf(ctrl);
        variant = variant == null ? "" : variant;
    }

    /** The primary variant. */
    public CaseKey(String profile, String from, String to, String rounding, String state, String form,
                   Map<Integer, Integer> ctrl) {
        this(profile, from, to, rounding, state, form, ctrl, "");
    }

    /** "float->half/rn-nosat", or "float->half/rn-nosat [implicit 60=1,48=0]" for another variant. */
    public String name() {
        return pair() + "/" + nameInPair();
    }

    /** "float->half/rn-nosat": the state every variant of this case selects (its primary variant's name). */
    public String stateName() {
        return pair() + "/" + rounding + "-" + state;
    }

    /** The name within its pair: "rn-nosat", or "rn-nosat [implicit 60=1,48=0]" for another variant. */
    public String nameInPair() {
        return rounding + "-" + state + (variant.isEmpty() ? "" : " [" + variant + "]");
    }

    /** Whether name() matches a glob where '*' matches anything ("float->half/rn-*"); nothing else is special. */
    public boolean nameMatches(String glob) {
        StringBuilder regex = new StringBuilder();
        for (String part : glob.split("\\*", -1)) {
            regex.append(regex.isEmpty() ? "" : ".*").append(Pattern.quote(part));
        }
        return Pattern.matches(regex.toString(), name());
    }

    public String pair() {
        return from + "->" + to;
    }

    /** ctrlText(), or "-" for a profile without CTRL bits: a protocol field is never empty. */
    public String ctrlField() {
        return new CtrlState(ctrl).field();
    }

    /** CTRL bits as "60=0,59=0,50=0,48=1" (descending bit order). */
    public String ctrlText() {
        return new CtrlState(ctrl).toString();
    }
}
