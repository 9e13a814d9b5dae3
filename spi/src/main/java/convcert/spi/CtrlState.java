package convcert.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A setting of the CTRL bits that conversions consult: bit number to 0 or 1. The one shape of a CTRL setting
 * in the tables, the reference, case identities and the manifest (whose JSON spells it {@link #names()}).
 */
public record CtrlState(Map<Integer, Integer> bits) {

    public CtrlState {
        bits = Collections.unmodifiableMap(new TreeMap<>(bits));
    }

    public int bit(int bit) {
        Integer value = bits.get(bit);
        if (value == null) {
            throw new IllegalArgumentException("CTRL[" + bit + "] is not a conversion control bit");
        }
        return value;
    }

    public CtrlState with(int bit, int value) {
        Map<Integer, Integer> copy = new TreeMap<>(bits);
        copy.put(bit, value);
        return new CtrlState(copy);
    }

    /** Every setting of the given bits (one empty state when there are none). */
    public static List<CtrlState> all(Collection<Integer> bitsToSet) {
        List<Integer> bits = List.copyOf(bitsToSet);
        List<CtrlState> states = new ArrayList<>();
        for (int i = 0; i < 1 << bits.size(); i++) {
            Map<Integer, Integer> state = new TreeMap<>();
            for (int k = 0; k < bits.size(); k++) {
                state.put(bits.get(k), (i >> k) & 1);
            }
            states.add(new CtrlState(state));
        }
        return states;
    }

    /** A manifest's spelling read back: bit numbers as text; anything but BIT=0 or BIT=1 is refused. */
    public static CtrlState ofNames(Map<String, Integer> names) {
        Map<Integer, Integer> bits = new TreeMap<>();
        if (names != null) {
            names.forEach((bit, value) -> {
                if (!bit.matches("[0-9]{1,4}") || value == null) {
                    throw new IllegalArgumentException("CTRL '" + bit + "=" + value + "' is not BIT=0 or BIT=1");
                }
                bits.put(Integer.parseInt(bit), value);
            });
        }
        return new CtrlState(bits);
    }

    /** The manifest's spelling: bit numbers as text, in descending bit order. */
    public Map<String, Integer> names() {
        Map<String, Integer> names = new LinkedHashMap<>();
        descending().forEach(e -> names.put(e.getKey().toString(), e.getValue()));
        return names;
    }

    /** toString(), or "-" without CTRL bits: a protocol field is never empty. */
    public String field() {
        return bits.isEmpty() ? "-" : toString();
    }

    private java.util.stream.Stream<Map.Entry<Integer, Integer>> descending() {
        return bits.entrySet().stream().sorted(Map.Entry.<Integer, Integer>comparingByKey().reversed());
    }

    /** "60=1,59=0,50=0,48=0" in descending bit order, the form --ctrl takes. */
    @Override
    public String toString() {
        return descending().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
