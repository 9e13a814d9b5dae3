package convcert.oracle;

import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A second, independent reference: exact rational arithmetic on BigDecimal, the rounding modes
 * applied by their definitions (nearest neighbour below and above, ties by rule), overflow by IEEE 754
 * (rounded with an unbounded exponent, then compared with the largest finite value) and Table 3 for
 * specials. Destinations up to 16 bits are searched in the sorted set of their decoded values;
 * float and double use the JDK's BigDecimal.floatValue/doubleValue and Math.nextUp/nextDown; integers use
 * BigDecimal.setScale with the JDK's RoundingMode. It implements the default decision options only.
 */
public final class RationalOracle {

    private RationalOracle() {
    }

    /** Largest finite code and the grid's next value above it (where overflow starts), per research formats.md. */
    private record Top(long maxCode, BigDecimal next, Long infCode) {
    }

    private static final Map<String, Top> TOPS = Map.of(
            "half", new Top(0x7BFF, BigDecimal.valueOf(65536), 0x7C00L),
            "bfloat16", new Top(0x7F7F, IndependentDecoder.pow2(BigInteger.ONE, 128), 0x7F80L),
            "fp8_e5m2", new Top(0x7B, BigDecimal.valueOf(65536), 0x7CL),
            "fp8_e4m3fn", new Top(0x7E, BigDecimal.valueOf(480), null),
            "hifloat8", new Top(0x6E, BigDecimal.valueOf(49152), 0x6FL),
            "float", new Top(0x7F7FFFFF, IndependentDecoder.pow2(BigInteger.ONE, 128), 0x7F800000L),
            "double", new Top(0x7FEFFFFFFFFFFFFFL, IndependentDecoder.pow2(BigInteger.ONE, 1024), 0x7FF0000000000000L));

    record Entry(BigDecimal value, long code) {
    }

    private static final Map<String, List<Entry>> VALUE_SETS = new ConcurrentHashMap<>();

    /** The non-negative finite values of a format of up to 16 bits, ascending, with their codes. */
    static List<Entry> valueSet(String format) {
        return VALUE_SETS.computeIfAbsent(format, f -> {
            int w = IndependentDecoder.width(f);
            List<Entry> entries = new ArrayList<>();
            for (long code = 0; code < (1L << (w - 1)); code++) { // non-negative codes
                Value v = IndependentDecoder.decode(f, code);
                if (v.kind() == Value.Kind.FINITE || v.kind() == Value.Kind.ZERO) {
                    entries.add(new Entry(v.magnitude(), code));
                }
            }
            entries.sort(Comparator.comparing(Entry::value));
            return List.copyOf(entries);
        });
    }

    public static Expected convert(String from, String to, Rounding mode, Saturation saturation, boolean ctrl50,
                                   long bits) {
        Value v = IndependentDecoder.decode(from, bits);
        boolean integerDestination = IndependentDecoder.isInteger(to);
        int width = IndependentDecoder.width(to);
        long signBit = 1L << (width - 1);
        boolean fp8 = to.startsWith("fp8");
        switch (v.kind()) {
            case NAN -> {
                if (integerDestination) {
                    return Expected.bits(0);
                }
                if (saturation == Saturation.SAT && !(fp8 && ctrl50)) {
                    return Expected.bits(0);
                }
                return Expected.nan(to.equals("hifloat8") ? null : v.negative());
            }
            case INFINITE -> {
                if (integerDestination) {
                    return Expected.bits(extreme(to, v.negative()));
                }
                Top top = TOPS.get(to);
                if (saturation == Saturation.SAT) {
                    return Expected.bits(top.maxCode() | (v.negative() ? signBit : 0));
                }
                return infinity(to, top, v.negative(), signBit);
            }
            case ZERO -> {
                return Expected.bits(integerDestination || to.equals("hifloat8") || !v.negative() ? 0 : signBit);
            }
            default -> {
            }
        }
        BigDecimal x = v.signed();
        if (integerDestination) {
            return Expected.bits(toInteger(to, x, mode, saturation));
        }
        if (from.equals(to)) { // round to an integral value, keep the type
            BigDecimal n = x.setScale(0, integerRounding(mode));
            if (n.signum() == 0) {
                return Expected.bits(v.negative() ? signBit : 0);
            }
            return Expected.bits(exactCode(to, n.abs()) | (n.signum() < 0 ? signBit : 0));
        }
        return roundToFloat(to, v.negative(), v.magnitude(), mode, saturation, signBit);
    }

    private static Expected infinity(String to, Top top, boolean negative, long signBit) {
        if (top.infCode() == null) {
            return Expected.nan(negative); // fp8_e4m3fn: no infinity (decision e4m3fn-overflow)
        }
        return Expected.bits(top.infCode() | (negative ? signBit : 0));
    }

    private static Expected roundToFloat(String to, boolean negative, BigDecimal a, Rounding mode,
                                         Saturation saturation, long signBit) {
        Top top = TOPS.get(to);
        BigDecimal max = IndependentDecoder.decode(to, top.maxCode()).magnitude();
        long sign = negative ? signBit : 0;
        long code;
        if (a.compareTo(max) > 0) {
            // Rounded with an unbounded exponent the result is max (only if a < next and the mode picks it) or more.
            boolean picksMax = a.compareTo(top.next()) < 0
                    && pick(mode, negative, a, max, top.next(), (top.maxCode() & 1) == 0, (top.maxCode() & 1) != 0) == 0;
            if (picksMax) {
                return Expected.bits(top.maxCode() | sign);
            }
            if (saturation == Saturation.SAT) {
                return Expected.bits(top.maxCode() | sign);
            }
            boolean toInfinity = switch (mode) {
                case RN, RNA, RH -> true;
                case RZ, RO -> false;
                case RS, RSA, RSB, RSC -> throw new IllegalArgumentException("stochastic rounding: see StochasticOracleTest");
                case RU -> !negative;
                case RD -> negative;
            };
            return toInfinity ? infinity(to, top, negative, signBit) : Expected.bits(top.maxCode() | sign);
        }
        long lowCode;
        long highCode;
        BigDecimal low;
        BigDecimal high;
        if (to.equals("float")) {
            float f = a.floatValue();
            while (new BigDecimal(f).compareTo(a) > 0) {
                f = Math.nextDown(f);
            }
            while (Math.nextUp(f) <= Float.MAX_VALUE && new BigDecimal(Math.nextUp(f)).compareTo(a) <= 0) {
                f = Math.nextUp(f);
            }
            low = new BigDecimal(f);
            lowCode = Float.floatToRawIntBits(f);
            float up = Math.nextUp(f);
            high = up == Float.POSITIVE_INFINITY ? top.next() : new BigDecimal(up);
            highCode = Float.floatToRawIntBits(up);
        } else if (to.equals("double")) {
            double f = a.doubleValue();
            while (new BigDecimal(f).compareTo(a) > 0) {
                f = Math.nextDown(f);
            }
            while (Math.nextUp(f) <= Double.MAX_VALUE && new BigDecimal(Math.nextUp(f)).compareTo(a) <= 0) {
                f = Math.nextUp(f);
            }
            low = new BigDecimal(f);
            lowCode = Double.doubleToRawLongBits(f);
            double up = Math.nextUp(f);
            high = up == Double.POSITIVE_INFINITY ? top.next() : new BigDecimal(up);
            highCode = Double.doubleToRawLongBits(up);
        } else {
            List<Entry> set = valueSet(to);
            int i = lastAtMost(set, a);
            low = set.get(i).value();
            lowCode = set.get(i).code();
            if (i + 1 < set.size()) {
                high = set.get(i + 1).value();
                highCode = set.get(i + 1).code();
            } else {
                high = top.next();
                highCode = top.maxCode() + 1;
            }
        }
        if (low.compareTo(a) == 0) {
            code = lowCode;
        } else {
            boolean lowEven = (lowCode & 1) == 0;
            code = pick(mode, negative, a, low, high, lowEven, (highCode & 1) == 0) == 0 ? lowCode : highCode;
        }
        boolean zero = code == 0;
        return Expected.bits(code | (zero && (to.equals("hifloat8")) ? 0 : sign));
    }

    /** 0 picks low, 1 picks high, by the mode's definition; a lies strictly between them. */
    static int pick(Rounding mode, boolean negative, BigDecimal a, BigDecimal low, BigDecimal high,
                            boolean lowEven, boolean highEven) {
        int nearer = a.subtract(low).compareTo(high.subtract(a)); // <0: low nearer
        return switch (mode) {
            case RZ -> 0;
            case RU -> negative ? 0 : 1;
            case RD -> negative ? 1 : 0;
            case RNA -> nearer < 0 ? 0 : 1;
            case RN -> nearer < 0 ? 0 : nearer > 0 ? 1 : (lowEven ? 0 : 1);
            case RO -> lowEven ? 1 : 0;
            case RH -> throw new IllegalArgumentException("hybrid rounding: use HifloatPseudoCode");
            case RS, RSA, RSB, RSC -> throw new IllegalArgumentException("stochastic rounding: see StochasticOracleTest");
        };
    }

    static int lastAtMost(List<Entry> set, BigDecimal a) {
        int lo = 0;
        int hi = set.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (set.get(mid).value().compareTo(a) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static long exactCode(String format, BigDecimal magnitude) {
        if (format.equals("float")) {
            float f = magnitude.floatValue();
            if (new BigDecimal(f).compareTo(magnitude) != 0) {
                throw new IllegalStateException(magnitude + " is not a float");
            }
            return Float.floatToRawIntBits(f);
        }
        List<Entry> set = valueSet(format);
        Entry e = set.get(lastAtMost(set, magnitude));
        if (e.value().compareTo(magnitude) != 0) {
            throw new IllegalStateException(magnitude + " is not a " + format);
        }
        return e.code();
    }

    static RoundingMode integerRounding(Rounding mode) {
        return switch (mode) {
            case RN -> RoundingMode.HALF_EVEN;
            case RNA -> RoundingMode.HALF_UP; // BigDecimal's HALF_UP: ties away from zero
            case RD -> RoundingMode.FLOOR;
            case RU -> RoundingMode.CEILING;
            case RZ -> RoundingMode.DOWN;
            default -> throw new IllegalArgumentException(mode + " is not offered for integer results");
        };
    }

    private static long toInteger(String to, BigDecimal x, Rounding mode, Saturation saturation) {
        BigInteger n = x.setScale(0, integerRounding(mode)).toBigIntegerExact();
        int w = IndependentDecoder.width(to);
        boolean signed = to.startsWith("int");
        BigInteger min = signed ? BigInteger.ONE.shiftLeft(w - 1).negate() : BigInteger.ZERO;
        BigInteger max = signed ? BigInteger.ONE.shiftLeft(w - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        BigInteger mask = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        if (n.compareTo(min) < 0 || n.compareTo(max) > 0) {
            if (saturation == Saturation.SAT) {
                n = n.signum() < 0 ? min : max;
            }
        }
        return n.and(mask).longValue();
    }

    private static long extreme(String to, boolean negative) {
        int w = IndependentDecoder.width(to);
        boolean signed = to.startsWith("int");
        if (negative) {
            return signed ? 1L << (w - 1) : 0;
        }
        return signed ? (1L << (w - 1)) - 1 : (w == 64 ? -1L : (1L << w) - 1);
    }
}
