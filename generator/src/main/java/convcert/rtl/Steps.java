package convcert.rtl;

import convcert.reference.Converter;
import convcert.reference.FormatCodec;
import convcert.reference.NaNs;
import convcert.spec.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The steps generation of a model: a case's results as a step function of its input. Inputs are put in an
 * order (a narrow source's codes as they are; a wide source split by sign and ordered by magnitude, where a
 * conversion in any rounding mode gives one run of equal results per destination value), and the model is
 * the first input of each run with its result: comparators and a multiplexer, whatever the destination's
 * encoding (HiFloat8's tapered grid, E8M0, P3109, integers), rounding mode or CTRL form. A source of up to 16
 * bits is scanned whole, so its steps are exact; a wider one's runs are found by galloping search, which
 * assumes that a result does not come back once left, and random inputs are checked against the reference
 * before the model is written: a case where they differ, or with more than {@link #LIMIT} runs, has none.
 * NaNs take the affine map of NanMap, so a NaN's payload adds no steps.
 */
record Steps(Order order, List<List<long[]>> runs) {

    /** Most runs a model may have: beyond this a multiplexer is no longer a model a solver or simulator wants. */
    static final int LIMIT = 4096;

    private static final int CHECKS = 1 << 14;

    /** How a source's codes are put in order: halves of inputs (by sign), each an unsigned ordinal range. */
    enum Order {
        /** Up to 16 bits: one half, the code itself. */
        CODES,
        /** A wide sign-magnitude float: by sign, the magnitude bits, up to the largest that is not a NaN. */
        SIGN_MAGNITUDE,
        /** A wide signed integer: by sign, the magnitude (2^(W-1) included). */
        TWOS_COMPLEMENT,
        /** A wide unsigned integer: the code. */
        UNSIGNED;

        static Order of(FormatCodec src) {
            if (src.format().width() <= 16) {
                return CODES;
            }
            if (src.isInteger()) {
                return src.format().isSigned() ? TWOS_COMPLEMENT : UNSIGNED;
            }
            return (src.layout() == Layout.IEEE || src.layout() == Layout.IEEE_FN) && src.signBit() != 0 ? SIGN_MAGNITUDE : null;
        }

        int halves() {
            return this == SIGN_MAGNITUDE || this == TWOS_COMPLEMENT ? 2 : 1;
        }
    }

    /** A case's steps model, or why it has none: exactly one of the two is null. */
    record Found(Steps steps, String why) {
    }

    /** The case's steps model, found and (for a wide source) checked once, or why it has none. */
    static Found model(Converter converter) {
        if (converter.operands().laneBits() != 0) {
            return new Found(null, "the case takes a lane (random bits or a scale) beside each value");
        }
        if (Order.of(converter.source()) == null) {
            return new Found(null, "a " + converter.source().format().width() + "-bit " + converter.source().layout().tableName()
                    + " source has no order of magnitudes");
        }
        Steps steps = find(converter);
        String why = steps == null ? "its results change at more than " + LIMIT + " inputs" : steps.check(converter);
        return why == null ? new Found(steps, null) : new Found(null, why);
    }

    /** Why the case has no steps model, or null. */
    static String unsupported(Converter converter) {
        return model(converter).why();
    }

    /** The case's runs, or null when there are more than LIMIT. */
    static Steps find(Converter converter) {
        FormatCodec src = converter.source();
        Order order = Order.of(src);
        List<List<long[]>> runs = new ArrayList<>();
        int count = 0;
        for (int half = 0; half < order.halves(); half++) {
            List<long[]> list = new ArrayList<>();
            long first = first(order, half);
            long last = last(src, order, half);
            long at = first;
            while (true) {
                long result = converter.apply(code(src, order, half, at));
                list.add(new long[] {at, result});
                if (++count > LIMIT) {
                    return null;
                }
                long end = order == Order.CODES ? scan(converter, src, at, last, result)
                        : gallop(converter, src, order, half, at, last, result);
                if (end == last) {
                    break;
                }
                at = end + 1;
            }
            runs.add(list);
        }
        return new Steps(order, runs);
    }

    /** The last code of a run in a narrow source, NaNs continuing whatever run they are in. */
    private static long scan(Converter converter, FormatCodec src, long at, long last, long result) {
        long k = at;
        while (k < last && (NaNs.isNaN(src, k + 1) || converter.apply(k + 1) == result)) {
            k++;
        }
        return k;
    }

    /** The last ordinal of a run in a wide source: doubling steps, then bisection (unsigned ordinals). */
    private static long gallop(Converter converter, FormatCodec src, Order order, int half, long at, long last, long result) {
        long good = at;
        long step = 1;
        long bad = -1; // none found yet
        while (true) {
            long room = last - good;
            if (Long.compareUnsigned(step, room) > 0) {
                if (room == 0 || converter.apply(code(src, order, half, last)) == result) {
                    return last;
                }
                bad = last;
                break;
            }
            long probe = good + step;
            if (converter.apply(code(src, order, half, probe)) != result) {
                bad = probe;
                break;
            }
            good = probe;
            step <<= 1;
        }
        while (bad - good > 1) {
            long mid = good + ((bad - good) >>> 1);
            if (converter.apply(code(src, order, half, mid)) == result) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return good;
    }

    private static long first(Order order, int half) {
        return order == Order.TWOS_COMPLEMENT && half == 1 ? 1 : 0;
    }

    /** The largest ordinal of a half: the largest non-NaN magnitude of a float (its infinity's, or its largest finite's). */
    private static long last(FormatCodec src, Order order, int half) {
        return switch (order) {
            case CODES, UNSIGNED -> src.format().mask();
            case TWOS_COMPLEMENT -> half == 0 ? src.format().mask() >>> 1 : src.signBit();
            case SIGN_MAGNITUDE -> (src.hasInfinity() ? src.infinity(false) : src.largestFinite(false)) & ~src.signBit();
        };
    }

    private static long code(FormatCodec src, Order order, int half, long ordinal) {
        return switch (order) {
            case CODES, UNSIGNED -> ordinal;
            case TWOS_COMPLEMENT -> half == 0 ? ordinal : -ordinal & src.format().mask();
            case SIGN_MAGNITUDE -> half == 0 ? ordinal : ordinal | src.signBit();
        };
    }

    /** Random inputs of a wide source against the reference: null when all agree, else why the model is refused. */
    String check(Converter converter) {
        FormatCodec src = converter.source();
        if (order == Order.CODES) {
            return null; // scanned whole
        }
        SplittableRandom random = new SplittableRandom(41);
        NanMap nans = NanMap.of(converter);
        for (int k = 0; k < CHECKS; k++) {
            long x = random.nextLong() & src.format().mask();
            // half the checks near a step, where a misplaced one would show
            if (k % 2 == 1) {
                int half = random.nextInt(runs.size());
                List<long[]> list = runs.get(half);
                long[] run = list.get(random.nextInt(list.size()));
                long ordinal = run[0] + random.nextLong(-2, 3);
                if (Long.compareUnsigned(ordinal, first(order, half)) < 0 || Long.compareUnsigned(ordinal, last(src, order, half)) > 0) {
                    continue;
                }
                x = code(src, order, half, ordinal);
            }
            long want = converter.apply(x);
            long got = NaNs.isNaN(src, x) ? nans.apply(x, src.signBit()) : evaluate(src, x);
            if (got != want) {
                return "its results are not a step function of the input's magnitude (input " + src.format().hex(x) + ")";
            }
        }
        return null;
    }

    /** What the model gives for a non-NaN input. */
    long evaluate(FormatCodec src, long x) {
        boolean negative = order.halves() == 2 && (x & src.signBit()) != 0;
        long ordinal = switch (order) {
            case CODES, UNSIGNED -> x;
            case SIGN_MAGNITUDE -> x & ~src.signBit();
            case TWOS_COMPLEMENT -> negative ? -x & src.format().mask() : x;
        };
        List<long[]> list = runs.get(negative ? 1 : 0);
        int lo = 0; // the last run whose first ordinal is at most this one (the first run starts the half)
        int hi = list.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Long.compareUnsigned(list.get(mid)[0], ordinal) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return list.get(lo)[1];
    }

    /** The module: the NaN map, then per half a chain of comparisons of the ordinal with each run's first. */
    String systemVerilog(Converter converter, String module) {
        FormatCodec src = converter.source();
        int wi = src.format().width();
        int wo = converter.destination().format().width();
        StringBuilder v = new StringBuilder();
        v.append("// Generated by convcert from its tables: ").append(converter.spec().describe()).append(".\n")
                .append("// Every input gives the reference's result: its ").append(runs.stream().mapToInt(List::size).sum())
                .append(" runs of equal results, generated (Steps.java).\n")
                .append("module ").append(module).append(" (input logic [").append(wi - 1).append(":0] in, output logic [")
                .append(wo - 1).append(":0] out);\n")
                .append("  logic [").append(wi - 1).append(":0] key;   // the input's place in its half's order\n")
                .append(NanMap.of(converter).function(src, wo))
                .append("  always_comb begin\n")
                .append("    key = ").append(switch (order) {
                    case CODES, UNSIGNED -> "in";
                    case SIGN_MAGNITUDE -> "{1'b0, in[" + (wi - 2) + ":0]}";
                    case TWOS_COMPLEMENT -> "in[" + (wi - 1) + "] ? -in : in";
                }).append(";\n")
                .append("    if (").append(NanMap.test(src)).append(") out = nan_result(in);\n");
        for (int half = runs.size() - 1; half >= 0; half--) {
            v.append(half == 1 ? "    else if (in[" + (wi - 1) + "]) begin\n" : "    else begin\n");
            List<long[]> list = runs.get(half);
            v.append("      out = ").append(ReferenceModel.hex(wo, list.get(0)[1])).append(";\n");
            for (long[] run : list.subList(1, list.size())) {
                v.append("      if (key >= ").append(ReferenceModel.hex(wi, run[0])).append(") out = ")
                        .append(ReferenceModel.hex(wo, run[1])).append(";\n");
            }
            v.append("    end\n");
        }
        return v.append("  end\nendmodule\n").toString();
    }
}
