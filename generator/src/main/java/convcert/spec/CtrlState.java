package convcert.spec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Values of the CTRL bits that conversions consult. */
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

    /** "60=1,48=0,50=0,59=0" in descending bit order, the form --ctrl takes. */
    @Override
    public String toString() {
        return bits.entrySet().stream()
                .sorted(Map.Entry.<Integer, Integer>comparingByKey().reversed())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
