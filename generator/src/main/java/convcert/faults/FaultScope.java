package convcert.faults;

import convcert.reference.Case;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import java.util.List;

/** Which cases a fault applies to (faults.csv's applies words), and why one that applies can change nothing. */
final class FaultScope {

    private final Reference reference;

    FaultScope(Reference reference) {
        this.reference = reference;
    }

    /** The applies words: modes, states and kinds of conversion, each category a disjunction. */
    boolean applies(Fault f, Case c) {
        if (f.mechanism() == Mechanism.BLOCK) { // a quantizer's fault: block and tensor cases only (BlockFaults)
            return false;
        }
        Conversion conv = c.conversion();
        List<String> words = f.applies();
        if (!f.modes().isEmpty() && !f.modes().contains(c.rounding())) {
            return false;
        }
        List<String> states = words.stream().filter(w -> List.of("sat", "nosat", "wrap", "propagate").contains(w)).toList();
        if (!states.isEmpty() && !states.contains(c.saturation().tableName())) {
            return false;
        }
        Format from = conv.from();
        Format to = conv.to();
        for (String w : words) {
            boolean ok = switch (w) {
                case "floating-to" -> !to.isInteger();
                case "integer-to" -> to.isInteger();
                case "unsigned-to" -> to.isInteger() && !to.isSigned();
                case "floating-from" -> !from.isInteger();
                case "float-source" -> from.layout() == Layout.IEEE && from.width() == 32;
                case "narrowing" -> narrowing(from, to);
                case "ctrl" -> !reference.tables().consultedBits(conv).isEmpty();
                case "scaled" -> conv.scale() != null;
                case "signed-scale" -> conv.scale() != null && conv.scale().signed();
                case "flags" -> reference.tables().hasFlags() && c.conversion().scale() == null && c.rounding() != Rounding.RH
                        && !c.rounding().stochastic();
                default -> true;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Whether a conversion loses precision: a double rounding through a format between can show. */
    static boolean narrowing(Format from, Format to) {
        if (from.isInteger()) {
            return !to.isInteger() && to.layout() != Layout.TAPERED && to.mantissaBits() + 1 < from.width() - 1;
        }
        return to.isInteger() || (to.layout() != Layout.TAPERED && from.layout() != Layout.TAPERED
                && to.mantissaBits() < from.mantissaBits()) || (to.layout() == Layout.TAPERED && from.width() > 8);
    }

    /**
     * Why a fault that its applies words admit changes nothing in this profile: a decision the
     * profile does not have or already takes, or a mechanism that has no effect on these cases.
     */
    String whyInert(Fault f) {
        if (f.mechanism() == Mechanism.DECISION) {
            String[] kv = f.parameter().split("=", 2);
            String chosen = reference.semantics().choices().get(kv[0]);
            return chosen == null ? "the profile has no decision " + kv[0]
                    : "the profile's decision " + kv[0] + " is " + chosen + (chosen.equals(kv[1]) ? " already" : "");
        }
        if (f.mechanism() == Mechanism.VIA) {
            return "no case rounds through " + f.parameter() + " (it must be narrower than the source and wider than the destination)";
        }
        return "its mechanism (" + f.mechanism().word() + " " + f.parameter() + ") has no effect on the cases it applies to";
    }
}
