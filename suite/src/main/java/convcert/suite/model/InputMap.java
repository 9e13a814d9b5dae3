package convcert.suite.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where in the input space an exhaustive case's mismatches lie, counted over every mismatch (not a
 * sample): a cell per sign, exponent field and leading fraction bits of the source. A cell holds
 * 2^(mantissa bits - fraction bits) inputs, so a count reads as a share of its cell. Only binary
 * floating sources (IEEE and finite-only layouts) have one.
 *
 * @param bias         the exponent field's bias: the cell's binade is 2^(field - bias) (subnormals and zero at field 0)
 * @param topFieldSpecial the all-ones exponent field holds infinity and NaN (IEEE layout), not a binade
 * @param fractionBits the leading fraction bits that split a binade into rows
 * @param cells mismatches per cell, keyed "SIGN EXPONENT-FIELD-HEX.LEADING-BITS" (e.g. "+7f.101"); empty cells left out
 */
public record InputMap(int exponentBits, int mantissaBits, int bias, boolean topFieldSpecial, int fractionBits,
                       Map<String, Long> cells) {

    /** At most this many leading fraction bits: 8 rows per sign keep the picture readable. */
    static final int LEADING = 3;

    public InputMap {
        cells = cells == null ? Map.of() : Map.copyOf(new TreeMap<>(cells));
    }

    /** How many inputs one cell holds. */
    public long cellSize() {
        return 1L << (mantissaBits - fractionBits);
    }

    public long total() {
        return cells.values().stream().mapToLong(Long::longValue).sum();
    }

    public static String cell(boolean negative, long exponentField, long leading, int exponentBits, int fractionBits) {
        String e = Long.toHexString(exponentField);
        String f = fractionBits == 0 ? "" : Long.toBinaryString(leading | 1L << fractionBits).substring(1);
        return (negative ? "-" : "+") + "0".repeat(Math.max(0, (exponentBits + 3) / 4 - e.length())) + e + "." + f;
    }

    /** The two maps of one case's disjoint input ranges (shards, --jobs parts) as one. */
    public InputMap plus(InputMap other) {
        if (other == null) {
            return this;
        }
        if (other.exponentBits != exponentBits || other.fractionBits != fractionBits || other.mantissaBits != mantissaBits
                || other.bias != bias || other.topFieldSpecial != topFieldSpecial) {
            throw new IllegalArgumentException("input maps of different shapes");
        }
        Map<String, Long> sum = new TreeMap<>(cells);
        other.cells.forEach((k, n) -> sum.merge(k, n, Long::sum));
        return new InputMap(exponentBits, mantissaBits, bias, topFieldSpecial, fractionBits, sum);
    }

    /** Counts mismatching inputs of one source format into cells; a flat array, so a mismatch costs an increment. */
    public static final class Counter {
        private final int exponentBits;
        private final int fractionBits;
        private final int mantissaBits;
        private final int bias;
        private final boolean topFieldSpecial;
        private final long[] counts;

        /** A source of sign, exponent and mantissa fields; topFieldSpecial: its all-ones exponent holds infinities and NaNs. */
        public Counter(int exponentBits, int mantissaBits, int bias, boolean topFieldSpecial) {
            this.exponentBits = exponentBits;
            this.mantissaBits = mantissaBits;
            this.bias = bias;
            this.topFieldSpecial = topFieldSpecial;
            fractionBits = Math.min(LEADING, mantissaBits);
            counts = new long[1 << (1 + exponentBits + fractionBits)];
        }

        public void add(long input) {
            counts[(int) (input >>> (mantissaBits - fractionBits))]++;
        }

        public InputMap map() {
            Map<String, Long> cells = new TreeMap<>();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != 0) {
                    long lead = i & ((1L << fractionBits) - 1);
                    long exponent = (i >>> fractionBits) & ((1L << exponentBits) - 1);
                    cells.put(cell((i >>> (fractionBits + exponentBits)) != 0, exponent, lead, exponentBits, fractionBits),
                            counts[i]);
                }
            }
            return new InputMap(exponentBits, mantissaBits, bias, topFieldSpecial, fractionBits, cells);
        }
    }
}
