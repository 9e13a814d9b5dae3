package convcert.vectors;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.Format;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Codes and exact values of a format, for choosing inputs. */
final class CodeValues {

    private CodeValues() {
    }

    /** At most n items of the list, evenly spread, first and last included. */
    static <T> List<T> spread(List<T> items, int n) {
        if (items.size() <= n) {
            return items;
        }
        List<T> picked = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            picked.add(items.get((int) ((long) k * (items.size() - 1) / Math.max(1, n - 1))));
        }
        return picked;
    }

    /** The codes without a sign bit: those below it, or every code of an unsigned format (E8M0). */
    static long positiveCodes(FormatCodec codec) {
        return codec.signBit() != 0 ? codec.signBit() : 1L << codec.format().width();
    }

    /** Positive finite codes (zero excluded) of a floating format, in value order. */
    static List<Long> positiveFiniteCodes(FormatCodec codec) {
        Format f = codec.format();
        List<Long> codes = new ArrayList<>();
        if (f.width() <= 16) {
            for (long code = 0; code < positiveCodes(codec); code++) {
                if (codec.decode(code).kind() == Decoded.Kind.FINITE) {
                    codes.add(code);
                }
            }
            codes.sort(Comparator.comparing(code -> value(codec, code)));
            return codes;
        }
        // Wide IEEE formats: code order is value order; every binade's first and last code, spread by 2^16.
        for (long code = 1; code <= f.maxFinite(); code += Math.max(1, (f.maxFinite() >>> 16))) {
            codes.add(code);
        }
        for (long e = 0; e <= (f.maxFinite() >>> f.mantissaBits()); e++) {
            codes.add(Math.max(1, e << f.mantissaBits()));
            codes.add(Math.min(f.maxFinite(), ((e + 1) << f.mantissaBits()) - 1));
        }
        return codes.stream().distinct().sorted().toList();
    }

    static BigDecimal value(FormatCodec codec, long code) {
        Decoded d = codec.decode(code);
        return d.kind() == Decoded.Kind.FINITE ? Values.exact(d.negative(), d.significand(), d.exponent()) : BigDecimal.ZERO;
    }

    static BigInteger integerMin(Format f) {
        return f.isSigned() ? BigInteger.ONE.shiftLeft(f.width() - 1).negate() : BigInteger.ZERO;
    }

    static BigInteger integerMax(Format f) {
        return new BigInteger(Long.toUnsignedString(f.maxFinite()));
    }
}
