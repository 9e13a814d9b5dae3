package convcert.vectors;

import static convcert.vectors.CodeValues.positiveCodes;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.Format;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A floating source's codes around a value, through its codec alone: the largest code at or below
 * t (rounding down, 0 below the smallest) and the smallest at or above it (rounding up; beyond
 * the largest finite value, the code a non-saturating conversion gives: infinity, else NaN, else
 * the largest value). Narrow formats (tapered ones too) search their codes sorted by value; wide
 * IEEE layouts search the code space, whose positive half is in value order. Values are compared
 * as doubles, which hold every value of these formats (at most 53 significant bits) exactly.
 */
final class SourceGrid {
    private final FormatCodec codec;
    private final long[] sorted; // narrow formats: positive finite codes in value order
    private final double[] values;

    SourceGrid(FormatCodec codec) {
        this.codec = codec;
        if (codec.format().width() <= 16) {
            List<long[]> codes = new ArrayList<>();
            for (long code = 0; code < positiveCodes(codec); code++) {
                if (codec.decode(code).kind() == Decoded.Kind.FINITE) {
                    codes.add(new long[] {code});
                }
            }
            codes.sort(Comparator.comparingDouble(c -> valueOf(c[0])));
            sorted = codes.stream().mapToLong(c -> c[0]).toArray();
            values = Arrays.stream(sorted).mapToDouble(this::valueOf).toArray();
        } else {
            sorted = null;
            values = null;
        }
    }

    private double valueOf(long code) {
        Decoded d = codec.decode(code);
        return Math.scalb((double) d.significand(), d.exponent());
    }

    /** {round down, round up} of t >= 0 as codes. */
    long[] around(double t) {
        if (t == 0) {
            return new long[] {0, 0};
        }
        Format f = codec.format();
        long beyond = f.inf() != null ? f.inf() : f.hasNan() ? f.nan() : f.maxFinite();
        long first = sorted != null ? 0 : 1;
        long last = sorted != null ? sorted.length - 1 : f.maxFinite();
        long lowIndex = -1; // the largest index whose value <= t
        long lo = first;
        long hi = last;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            if (valueAt(mid) <= t) {
                lowIndex = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        long down = lowIndex < 0 ? 0 : codeAt(lowIndex);
        if (lowIndex >= 0 && valueAt(lowIndex) == t) {
            return new long[] {down, down};
        }
        long up = lowIndex >= last ? beyond : codeAt(lowIndex < 0 ? first : lowIndex + 1);
        return new long[] {down, up};
    }

    private double valueAt(long index) {
        return sorted != null ? values[(int) index] : valueOf(index);
    }

    private long codeAt(long index) {
        return sorted != null ? sorted[(int) index] : index;
    }
}
