package convcert.vectors;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Operands;
import convcert.spec.Conversion;
import convcert.spec.ScaleLane;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The operands of a case with a lane beside each value (coverage.csv's carry, random-operand, scale-edge and
 * scale-operand tags): its inputs paired with random bits or scales. Split from CoverageModel.
 */
final class LaneOperands {

    private final List<CoverageTag> tags;
    private final Level level;
    private final long seed;

    LaneOperands(List<CoverageTag> tags, Level level, long seed) {
        this.tags = tags;
        this.level = level;
        this.seed = seed;
    }

    /** A stochastic scaled conversion (gfx950's _sr_ forms) takes the random bits on each of its scale operands. */
    TaggedInputs operands(Conversion c, Converter converter, TaggedInputs inputs) {
        boolean scaled = converter.operands().scale() != null;
        boolean stochastic = converter.operands().randomBits() > 0;
        TaggedInputs scales = scaled ? scaleOperands(c, converter, inputs) : inputs;
        return stochastic ? stochasticOperands(c, converter, scales) : scales;
    }

    private int atLevel(String tag) {
        return tags.stream().filter(t -> t.tag().equals(tag)).mapToInt(t -> t.at(level)).findFirst().orElse(0);
    }

    /**
     * A scaled conversion's operands: each input with the scale 0 (under its own tag) and the lane's
     * smallest and largest; for finite inputs also the scales that move the value's binade to the
     * destination's edges (tag scale-edge: its top binade and the one above, the smallest normal binade
     * and the one below, the smallest subnormal's binade and the two below, where rounding meets the
     * range: what separates one exact rounding from rounding before or after scaling), and seeded
     * random ones (tag scale-operand, that many per input). An enumerated source whose value and scale
     * fit 16 bits together takes every scale instead.
     */
    private TaggedInputs scaleOperands(Conversion c, Converter converter, TaggedInputs inputs) {
        ScaleLane lane = converter.operands().scale();
        FormatCodec dst = converter.destination();
        TaggedInputs operands = new TaggedInputs(converter.operands().mask());
        boolean edges = atLevel("scale-edge") > 0;
        int draws = atLevel("scale-operand");
        SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + "scale-operand".hashCode()));
        int smallest = dst.quantum(dst.minExponent());
        int[] targets = {dst.maxExponent(), dst.maxExponent() + 1, dst.minExponent(), dst.minExponent() - 1, smallest,
            smallest - 1, smallest - 2};
        long[] bits = inputs.bits();
        String[] tag = inputs.tags();
        // An enumerated source whose values and scales together fit 16 bits (FP8 widening): every pair.
        boolean everyScale = c.from().width() <= atLevel("exhaustive") && c.from().width() + lane.bits() <= 16;
        for (int i = 0; i < bits.length; i++) {
            if (everyScale) {
                for (long code = 0; code < 1L << lane.bits(); code++) {
                    operands.add(converter.operands().operand(bits[i], code), tag[i]);
                }
                continue;
            }
            operands.add(converter.operands().operand(bits[i], 0), tag[i]);
            operands.add(converter.operands().operand(bits[i], lane.code(lane.min())), tag[i]);
            operands.add(converter.operands().operand(bits[i], lane.code(lane.max())), tag[i]);
            Decoded x = converter.source().decode(bits[i]);
            if (edges && x.kind() == Decoded.Kind.FINITE) {
                for (int target : targets) {
                    long k = (lane.divides() ? x.binade() - (long) target : target - (long) x.binade()) + lane.bias();
                    if (k >= lane.min() && k <= lane.max()) {
                        operands.add(converter.operands().operand(bits[i], lane.code(k)), "scale-edge");
                    }
                }
            }
            for (int k = 0; k < draws; k++) {
                operands.add(converter.operands().operand(bits[i], random.nextLong(1L << lane.bits())), "scale-operand");
            }
        }
        return operands;
    }

    /**
     * Stochastic rounding's operands (converter.operands().randomBits() > 0): each input (with its scale,
     * if scaled) with the random bits 0 and all ones (under the input's own tag); where random bits decide
     * its result, also at its carry boundary, the least random bits that carry and one less (tag carry),
     * and seeded random ones (tag random-operand, that many per input).
     */
    private TaggedInputs stochasticOperands(Conversion c, Converter converter, TaggedInputs inputs) {
        long full = 1L << converter.operands().randomBits();
        TaggedInputs operands = new TaggedInputs(converter.operands().mask());
        boolean carry = tags.stream().anyMatch(t -> t.tag().equals("carry") && t.at(level) > 0);
        int draws = atLevel("random-operand");
        SplittableRandom random = new SplittableRandom(seed ^ (31L * c.pairName().hashCode() + "random-operand".hashCode()));
        Operands o = converter.operands();
        long[] bits = inputs.bits();
        String[] tag = inputs.tags();
        for (int i = 0; i < bits.length; i++) {
            operands.add(o.withRandom(bits[i], 0), tag[i]);
            operands.add(o.withRandom(bits[i], full - 1), tag[i]);
            long discarded = converter.discardedBeforeRandom(bits[i]);
            if (discarded < 0) {
                continue;
            }
            if (carry && discarded > 0) {
                operands.add(o.withRandom(bits[i], full - discarded), "carry");
                operands.add(o.withRandom(bits[i], full - discarded - 1), "carry");
            }
            for (int k = 0; k < draws; k++) {
                operands.add(o.withRandom(bits[i], random.nextLong(full)), "random-operand");
            }
        }
        return operands;
    }
}
