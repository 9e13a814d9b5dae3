package convcert.reference;

import java.util.TreeSet;

/** The ranks of a narrow format whose codes are not in value order (tapered): FormatCodec.rank's table. */
final class TaperedRanks {

    private TaperedRanks() {
    }

    /** Every code's position in value order, both zeros at 0 (NaN codes left at 0). */
    static long[] of(FormatCodec codec) {
        int codes = 1 << codec.format().width();
        double[] values = new double[codes];
        TreeSet<Double> distinct = new TreeSet<>();
        for (int c = 0; c < codes; c++) {
            Decoded d = codec.decode(c);
            values[c] = switch (d.kind()) {
                case NAN -> Double.NaN;
                case ZERO -> 0.0;
                case INFINITE -> d.negative() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                case FINITE -> Math.scalb((double) d.significand(), d.exponent()) * (d.negative() ? -1 : 1);
            };
            if (!Double.isNaN(values[c])) {
                distinct.add(values[c]);
            }
        }
        int zero = distinct.headSet(0.0).size();
        long[] r = new long[codes];
        for (int c = 0; c < codes; c++) {
            r[c] = Double.isNaN(values[c]) ? 0 : distinct.headSet(values[c]).size() - zero;
        }
        return r;
    }
}
