package convcert.oracle;

import convcert.spec.Rounding;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * llvm.convert.to.arbitrary.fp as the LangRef's sentences say it, in exact rational arithmetic over the
 * destination's decoded values (IndependentDecoder's hand-written parameters): "first, the value is rounded
 * according to the specified rounding mode to fit the target format's precision; then, if the rounded result
 * exceeds the target format's representable range, saturation is applied". Saturation true clamps overflow and
 * infinities to the largest finite value of the sign; false gives infinity where the format has one. A NaN stays a
 * NaN (any NaN: the payload "may be truncated"). Only the cases whose results the text defines are asked of it.
 */
public final class ArbitraryFpOracle {

    private ArbitraryFpOracle() {
    }

    /** FNUZ formats have no -0: a zero result is +0. */
    private static final Set<String> UNSIGNED_ZERO = Set.of("fp8_e4m3fnuz", "fp8_e5m2fnuz", "fp8_e4m3b11fnuz");

    public static Expected convert(String from, String to, Rounding mode, boolean saturate, long bits) {
        Value v = IndependentDecoder.decode(from, bits);
        List<RationalOracle.Entry> values = RationalOracle.valueSet(to);
        RationalOracle.Entry max = values.get(values.size() - 1);
        long sign = v.negative() ? 1L << (IndependentDecoder.width(to) - 1) : 0;
        switch (v.kind()) {
            case NAN -> {
                return Expected.nan(null);
            }
            case INFINITE -> {
                return Expected.bits((saturate ? max.code() : infinityCode(to, max)) | sign);
            }
            case ZERO -> {
                return Expected.bits(UNSIGNED_ZERO.contains(to) ? 0 : sign);
            }
            default -> {
            }
        }
        BigDecimal a = v.magnitude();
        int i = RationalOracle.lastAtMost(values, a);
        RationalOracle.Entry low = values.get(i);
        long code;
        if (low.value().compareTo(a) == 0) {
            code = low.code();
        } else {
            // beyond the largest finite value the grid goes on one step of the top binade: max + (max - its neighbour)
            boolean top = i == values.size() - 1;
            BigDecimal next = top ? max.value().add(max.value().subtract(values.get(i - 1).value())) : values.get(i + 1).value();
            long nextCode = top ? max.code() + 1 : values.get(i + 1).code();
            if (top && a.compareTo(next) >= 0) {
                return overflow(to, max, saturate, sign);
            }
            int pick = RationalOracle.pick(mode, v.negative(), a, low.value(), next, (low.code() & 1) == 0, (nextCode & 1) == 0);
            if (top && pick == 1) {
                return overflow(to, max, saturate, sign);
            }
            code = pick == 0 ? low.code() : nextCode;
        }
        return Expected.bits(code == 0 && UNSIGNED_ZERO.contains(to) ? 0 : code | sign);
    }

    private static Expected overflow(String to, RationalOracle.Entry max, boolean saturate, long sign) {
        return Expected.bits((saturate ? max.code() : infinityCode(to, max)) | sign);
    }

    /** The code above the largest finite value, where the format has infinities (IEEE-style): S.111..1.000. */
    private static long infinityCode(String to, RationalOracle.Entry max) {
        long code = max.code() + 1;
        if (IndependentDecoder.decode(to, code).kind() != Value.Kind.INFINITE) {
            throw new IllegalArgumentException(to + " has no infinity: saturation false is poison there (not asked)");
        }
        return code;
    }
}
