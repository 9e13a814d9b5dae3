package convcert.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.reference.Case;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The faults that run on a faster path than their definition: each equal to it. subnormal-results=flush is the
 * reading's own converter by definition (generic, no fast path) and runs as the right results flushed afterwards;
 * every floating case of the profile, every mode, on every input of a source of up to 16 bits and 32,768 seeded ones of a
 * wider one.
 */
class FaultFastPathTest {

    static final Path TABLES = Path.of(System.getProperty("convcert.home"), "spec-tables");

    @ParameterizedTest
    @ValueSource(strings = {"ascend-c", "cuda", "ocp-mx", "riscv", "ieee754"})
    void aFlushedResultIsTheFlushReadingsResult(String profile) {
        Reference reference = Reference.of(SpecTables.load(TABLES.resolve(profile)));
        if (!reference.semantics().choices().containsKey("subnormal-results")) {
            return;
        }
        Map<String, String> flush = new LinkedHashMap<>(reference.semantics().choices());
        flush.put("subnormal-results", "flush");
        Reference flushing = new Reference(reference.tables(), Semantics.of(reference.tables(), flush));
        Fault ftz = new Fault("ftz", "", Mechanism.DECISION, "subnormal-results=flush", List.of("floating-to"), java.util.Set.of(), true,
                "", null);
        FaultModel model = new FaultModel(reference);
        int checked = 0;
        for (Conversion c : reference.tables().conversions()) {
            if (c.to().isInteger() || c.scale() != null) {
                continue;
            }
            for (Rounding mode : c.modes()) {
                if (mode.stochastic()) {
                    continue;
                }
                for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                    Case state = variants.getFirst();
                    Faulty fast = model.implementation(ftz, state);
                    if (fast == null) {
                        continue;
                    }
                    var definition = flushing.converter(state);
                    long[] in = inputs(c.from().width());
                    long[] out = new long[in.length];
                    fast.apply(in, null, out, 0, in.length);
                    for (int i = 0; i < in.length; i++) {
                        assertEquals(definition.apply(in[i]), out[i], state.describe() + " input 0x" + Long.toHexString(in[i]));
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked > 0, profile);
    }

    /** Every input of a source of at most 16 bits, else 32,768 seeded ones. */
    private static long[] inputs(int width) {
        if (width <= 16) {
            long[] all = new long[1 << width];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        SplittableRandom random = new SplittableRandom(width);
        long[] some = new long[1 << 15];
        long mask = width == 64 ? -1L : (1L << width) - 1;
        for (int i = 0; i < some.length; i++) {
            some[i] = random.nextLong() & mask;
        }
        return some;
    }
}
