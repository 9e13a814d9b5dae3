package convcert.vectors;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns coverage.csv into the inputs of one (source, destination) pair: the points where
 * conversions go wrong (specials, bounds, ties, overflow thresholds, hybrid comparisons), then seeded
 * random values, then, for small sources, everything. generator/COVERAGE.md describes each tag.
 * The same inputs serve every rounding mode and saturation state of the pair.
 */
public final class CoverageModel {

    static final List<String> KNOWN_TAGS = List.of("zero", "special", "source-bounds", "overflow", "integer-bounds",
            "grid", "sticky", "half-integers", "hybrid-compare", "random-bits", "random-log", "exhaustive", "carry",
            "random-operand", "scale-edge", "scale-operand");

    /** Tags of a lane beside each value (random bits, a scale), applied by operands, not inputs. */
    private static final List<String> OPERAND_TAGS = List.of("carry", "random-operand", "scale-edge", "scale-operand");

    private final Reference reference;
    private final List<CoverageTag> tags;
    private final Level level;
    private final long seed;

    public CoverageModel(Reference reference, List<CoverageTag> tags, Level level, long seed) {
        this.reference = reference;
        this.tags = tags;
        this.level = level;
        this.seed = seed;
    }

    public List<CoverageTag> tags() {
        return tags;
    }

    public TaggedInputs inputs(Conversion c) {
        PairInputs p = new PairInputs(reference, c);
        boolean exhaustive = tags.stream().anyMatch(t -> t.tag().equals("exhaustive") && c.from().width() <= t.at(level));
        for (CoverageTag tag : tags) {
            int n = tag.at(level);
            if (n <= 0 || (exhaustive && tag.tag().startsWith("random-")) || OPERAND_TAGS.contains(tag.tag())) {
                continue; // random inputs only where the source is too wide to enumerate
            }
            SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + tag.tag().hashCode()));
            switch (tag.tag()) {
                case "zero" -> p.zero();
                case "special" -> p.special();
                case "source-bounds" -> p.sourceBounds();
                case "overflow" -> p.overflow();
                case "integer-bounds" -> p.integerBounds();
                case "grid" -> p.grid(n);
                case "sticky" -> p.sticky();
                case "half-integers" -> p.halfIntegers(n);
                case "hybrid-compare" -> p.hybridCompare(n, random);
                case "random-bits" -> p.randomBits(n, random);
                case "random-log" -> p.randomLog(n, random);
                case "exhaustive" -> p.exhaustive(n);
                default -> throw new IllegalStateException(tag.tag());
            }
            p.tag = null;
        }
        return p.inputs;
    }

    /** The operands of a case with a lane beside each value (converter.lane() not null): its inputs with lane values. */
    public TaggedInputs operands(Conversion c, Converter converter, TaggedInputs inputs) {
        return new LaneOperands(tags, level, seed).operands(c, converter, inputs);
    }
}
