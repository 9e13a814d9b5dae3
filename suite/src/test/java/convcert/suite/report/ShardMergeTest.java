package convcert.suite.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What merging two shards' cases does to where their mismatches fall. */
class ShardMergeTest {

    /** Shard 1 of a float source ends in NaNs of the positive half; shard 2 starts at -0: the chart must not run 2^0, NaN, 2^-3. */
    @Test
    void binadesOfTwoShardsAreInValueOrder() {
        Map<String, Long> first = new LinkedHashMap<>();
        first.put("0", 1L);
        first.put("2^0", 2L);
        first.put("NaN", 3L);
        Map<String, Long> second = new LinkedHashMap<>();
        second.put("2^-3", 4L);
        second.put("2^0", 5L);
        second.put("inf", 6L);
        Map<String, Long> merged = new LinkedHashMap<>(first);
        second.forEach((k, v) -> merged.merge(k, v, Long::sum));
        Map<String, Long> ordered = ShardMerge.binadeOrder(merged);
        assertEquals(List.of("0", "2^-3", "2^0", "inf", "NaN"), List.copyOf(ordered.keySet()));
        assertEquals(7L, ordered.get("2^0"));
    }
}
