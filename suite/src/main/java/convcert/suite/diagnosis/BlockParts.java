package convcert.suite.diagnosis;

import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.suite.model.Diagnosis;
import convcert.suite.model.MismatchKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A block case's wrong units (blocks, or whole tensors) judged block by block. A unit's outputs fall into groups,
 * one for each block they belong to (a tensor's blocks one by one, its amax on its own; a block case's block whole),
 * and a hypothesis is read group by group: it gives a group when every output of it is the device's. One that gives
 * every differing group and changes no group the device got right is a cause; one that changes no such group and
 * gives more than half the differing groups, two at least, is a part of the cause, named with the groups it does
 * not give, but only where those differ in other ways than the ones it gives (other outputs, or other relations
 * to the expected ones): a reading that agrees with one bug on most blocks (scales rounded up, beside scales one
 * binade too large) misses blocks that differ as the given ones do, and is no part of it. So a tensor whose one
 * all-NaN block differs for another reason keeps the reading that gives every other block of it, and a device
 * with two bugs is named by the one that gives most blocks.
 */
public final class BlockParts {

    /**
     * How a hypothesis meets the differing groups: how many it gives, the ones it does not (in words), and whether
     * those differ only in ways that none it gives does.
     */
    public record Tally(int given, List<String> missed, boolean missedDifferOtherwise) {
    }

    private final BlockConverter c;
    private final Judge judge;
    private final long[] expected;
    private final Map<Integer, long[]> wrong;
    /** Output i's group within its unit, and each group in words. */
    private final int[] group;
    private final List<String> names = new ArrayList<>();
    private final int differing;
    /** Unit -> for each group, how its outputs differ ("scale/" and a Relation key); empty where none does. */
    private final Map<Integer, List<Set<String>>> how = new HashMap<>();
    private Diagnosis.Hypothesis best;

    /** wrong: unit -> the device's outputs of it; expected: the reference's outputs of every unit. */
    public BlockParts(BlockConverter c, Judge judge, long[] expected, Map<Integer, long[]> wrong) {
        this.c = c;
        this.judge = judge;
        this.expected = expected;
        this.wrong = wrong;
        int out = c.outputsPerBlock();
        group = new int[out];
        Map<List<Integer>, Integer> ids = new HashMap<>();
        for (int i = 0; i < out; i++) {
            List<Integer> inputs = c.block().isTensor() ? c.inputsOf(i) : List.of();
            group[i] = ids.computeIfAbsent(inputs, k -> names.size());
            if (group[i] == names.size()) {
                names.add(c.block().isTensor() ? name(c.part(i)) : "");
            } else if (c.part(i).startsWith("scale of ")) {
                names.set(group[i], name(c.part(i))); // a block is named by its scale where it has one
            }
        }
        String[] role = new String[out]; // "scale", "element", "tensor": what kind of output i is
        for (int i = 0; i < out; i++) {
            role[i] = c.part(i).replaceAll(" .*", "").replaceAll("[0-9]+$", "");
        }
        int n = 0;
        for (Map.Entry<Integer, long[]> w : wrong.entrySet()) {
            List<Set<String>> groups = new ArrayList<>();
            names.forEach(x -> groups.add(new HashSet<>()));
            int base = w.getKey() * out;
            for (int i = 0; i < out; i++) {
                long want = expected[base + i];
                long got = w.getValue()[i];
                if (c.compared(expected, base, i) && !judge.same(c.outputCodec(i), want, got)) {
                    groups.get(group[i]).add(role[i] + "/" + Relation.of(c.outputCodec(i), want, got, MismatchKind.UNWRITTEN));
                }
            }
            n += (int) groups.stream().filter(g -> !g.isEmpty()).count();
            how.put(w.getKey(), groups);
        }
        differing = n;
    }

    /** "row 3, block 1" for a block's scale, "the block of element [3, 40]" for one without. */
    private static String name(String part) {
        return part.startsWith("scale of ") ? part.substring("scale of ".length()).replaceAll(" \\(slot [0-9]+\\)$", "")
                : part.startsWith("tensor amax") ? part : "the block of " + part;
    }

    /** How many wrong units were read. */
    public int units() {
        return wrong.size();
    }

    /** How many groups differ, over every wrong unit. */
    public int differing() {
        return differing;
    }

    /**
     * How hypothesis h (its outputs judged as hJudge judges its own) meets the wrong units, or null where it changes
     * an output of a group the device got right, or misses so many groups that it is neither the cause nor a part.
     */
    public Tally tally(BlockFunction h, BlockConverter hJudge, long[] inputs) {
        int out = c.outputsPerBlock();
        long[] result = new long[out];
        int given = 0;
        List<String> missed = new ArrayList<>();
        Set<String> givenHow = new HashSet<>();
        Set<String> missedHow = new HashSet<>();
        for (Map.Entry<Integer, long[]> w : wrong.entrySet()) {
            long[] got = w.getValue();
            h.apply(inputs, w.getKey() * c.inputsPerBlock(), result, 0);
            boolean[] miss = new boolean[names.size()];
            for (int i = 0; i < out; i++) {
                miss[group[i]] |= hJudge.compared(result, 0, i) && !judge.same(hJudge.outputCodec(i), result[i], got[i]);
            }
            List<Set<String>> differs = how.get(w.getKey());
            for (int g = 0; g < miss.length; g++) {
                if (differs.get(g).isEmpty() && miss[g]) {
                    return null; // it changes what the device got right
                }
                if (!differs.get(g).isEmpty()) {
                    (miss[g] ? missedHow : givenHow).addAll(differs.get(g));
                    if (miss[g]) {
                        missed.add(where(w.getKey(), g));
                    } else {
                        given++;
                    }
                }
            }
            if (2 * missed.size() >= differing) {
                return null;
            }
        }
        return new Tally(given, missed, java.util.Collections.disjoint(givenHow, missedHow));
    }

    /** "tensor 2: row 4, block 1", or "block 17". */
    private String where(int unit, int g) {
        return c.block().isTensor() ? "tensor " + unit + ": " + names.get(g) : "block " + unit;
    }

    /** Offers a hypothesis that gives part of the differing groups (its tally) and changes no right output. */
    public void offer(String fault, String description, Tally t) {
        if (t.missed().isEmpty() || !t.missedDifferOtherwise() || t.given() < 2 || best != null && best.explains() >= t.given()) {
            return;
        }
        String scope = String.format("%,d of the %,d blocks that differ", t.given(), differing)
                + (c.block().isTensor() ? String.format(" (in %,d tensors)", wrong.size()) : "");
        List<String> shown = t.missed().subList(0, Math.min(3, t.missed().size()));
        String elsewhere = String.join("; ", shown) + (t.missed().size() > shown.size()
                ? String.format("; and %,d more", t.missed().size() - shown.size()) : "");
        best = new Diagnosis.Hypothesis(fault, description, t.given(), 0, scope, elsewhere);
    }

    /** The part of the cause that gives most differing groups, or null. */
    public Diagnosis.Hypothesis best() {
        return best;
    }
}
