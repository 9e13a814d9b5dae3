package convcert.vectors;

import java.util.LinkedHashMap;
import java.util.Map;

/** The inputs of one pair, each with the coverage tag it was generated for, in generation order. */
public final class TaggedInputs {

    private final long mask;
    private final LinkedHashMap<Long, String> inputs = new LinkedHashMap<>();

    TaggedInputs(long mask) {
        this.mask = mask;
    }

    /** Adds an input unless present; the first tag wins. */
    void add(long bits, String tag) {
        inputs.putIfAbsent(bits & mask, tag);
    }

    public int size() {
        return inputs.size();
    }

    public long[] bits() {
        return inputs.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    public String[] tags() {
        return inputs.values().toArray(String[]::new);
    }

    /** Points per tag, in first-appearance order. */
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        inputs.values().forEach(tag -> counts.merge(tag, 1, Integer::sum));
        return counts;
    }
}
