package convcert.spec;

import convcert.spi.CtrlState;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One row of saturation.csv. ctrl holds the row's pattern over the CTRL bits its table has columns
 * for (ctrl.csv's bits, in column order): a value, or null for '*'. A null form means '*'. Rows are
 * tried in file order; the first that matches decides.
 */
public record SaturationRule(String group, Map<Integer, Integer> ctrl, Form form, Saturation effective, String source,
                             Location location) {

    public SaturationRule {
        ctrl = Collections.unmodifiableMap(new LinkedHashMap<>(ctrl));
    }

    public boolean matches(String group, Form form, CtrlState state) {
        if (!this.group.equals(group) || (this.form != null && this.form != form)) {
            return false;
        }
        for (var bit : ctrl.entrySet()) {
            if (bit.getValue() != null && bit.getValue() != state.bit(bit.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** The CTRL bits this row names with a value (not '*'). */
    public Set<Integer> consultedBits() {
        Set<Integer> bits = new LinkedHashSet<>();
        ctrl.forEach((bit, value) -> {
            if (value != null) {
                bits.add(bit);
            }
        });
        return bits;
    }

    public String describe() {
        StringBuilder b = new StringBuilder("group ").append(group);
        if (!ctrl.isEmpty()) {
            b.append(",");
            ctrl.forEach((bit, value) -> b.append(" CTRL[").append(bit).append("]=").append(value == null ? "*" : value));
        }
        return b.append(", form ").append(form == null ? "*" : form.tableName()).append(" -> ").append(effective.tableName())
                .append(" (").append(source).append(")").toString();
    }
}
