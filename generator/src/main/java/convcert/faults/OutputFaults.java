package convcert.faults;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import java.math.BigDecimal;
import java.util.function.LongPredicate;

/**
 * The output faults (mechanism output) that are not about NaN (NanFaults): the right result changed
 * afterwards, knowing the input: a lost sign of zero, an infinity or overflow handled wrong, a carry lost or
 * taken one code too far, a saturation band that starts a binade early.
 */
final class OutputFaults {

    private OutputFaults() {
    }

    /** The converters an output fault may need besides the right one. */
    interface Others {
        /** The case with another effective saturation (wrap, nosat). */
        Converter withSaturation(Saturation s);

        /** The case in another rounding mode. */
        Converter withMode(Rounding mode);
    }

    /** The faulty implementation of output fault p, or null where it cannot arise in this case. */
    static Faulty of(String p, Converter right, Others others, boolean hybrid) {
        FormatCodec src = right.source();
        FormatCodec dst = right.destination();
        long sign = dst.signBit();
        return switch (p) {
            case "zero-sign-lost" -> Faulty.after(right, (x, r) -> r == sign && dst.decode(r).kind() == Decoded.Kind.ZERO ? 0 : r);
            case "infinity-to-max" -> !dst.hasInfinity() ? null : Faulty.after(right, (x, r) -> {
                Decoded d = dst.decode(r);
                return d.kind() == Decoded.Kind.INFINITE ? dst.largestFinite(d.negative()) : r;
            });
            case "negative-unsigned-wraps" -> {
                if (src.isInteger() && !src.format().isSigned()) {
                    yield null; // an unsigned source has no negative input
                }
                Converter wrap = others.withSaturation(Saturation.WRAP);
                yield x -> src.decode(x).negative() && src.decode(x).kind() == Decoded.Kind.FINITE ? wrap.apply(x) : right.apply(x);
            }
            case "fnu-sign-kept" -> dst.layout() != Layout.IEEE_FNU || src.isInteger() || !src.format().isSigned() ? null : x -> {
                Decoded in = src.decode(x);
                // the magnitude's code with the sign one bit above the format: a signed conversion's answer
                return in.negative() && in.kind() != Decoded.Kind.NAN
                        ? 1L << dst.format().width() | right.apply(x & ~src.signBit()) : right.apply(x);
            };
            case "nan-canonical", "nan-sign-dropped", "nan-unquieted", "nan-truncated", "nan-to-zero", "infinity-to-nan",
                 "nan-to-int-min" -> NanFaults.of(p, right, src, dst);
            case "hybrid-band-edge-as-ta" -> {
                if (!hybrid || dst.format().layout() != Layout.TAPERED) {
                    yield null;
                }
                Converter ta = others.withMode(Rounding.RNA);
                yield x -> {
                    Decoded in = src.decode(x);
                    return in.kind() == Decoded.Kind.FINITE && bandEdge(dst, in.binade()) ? ta.apply(x) : right.apply(x);
                };
            }
            case "overflow-threshold-late" -> !dst.hasInfinity() ? null : Faulty.after(right, (x, r) -> {
                Decoded in = src.decode(x);
                return dst.decode(r).kind() == Decoded.Kind.INFINITE && in.kind() == Decoded.Kind.FINITE
                        && in.binade() <= dst.maxExponent() ? dst.largestFinite(in.negative()) : r;
            });
            case "carry-into-next-code" -> carryIntoNextCode(right, others.withSaturation(Saturation.NOSAT));
            case "carry-dropped" -> carryDropped(right);
            case "saturate-from-top-binade" -> dst.isInteger() ? null : Faulty.after(right, (x, r) -> {
                Decoded in = src.decode(x);
                return in.kind() == Decoded.Kind.FINITE && in.binade() >= dst.maxExponent() ? dst.largestFinite(in.negative()) : r;
            });
            default -> throw new IllegalArgumentException("output " + p);
        };
    }

    /**
     * Saturation decided on the value before rounding, against the value one code above the largest finite:
     * a value between the largest finite and that one that rounds up carries into the next code, NaN in
     * E4M3FN (0x7F), infinity where the format has one, NaN in an FNUZ format (the sign bit's code).
     */
    private static Faulty carryIntoNextCode(Converter saturating, Converter unsaturated) {
        FormatCodec src = saturating.source();
        FormatCodec dst = saturating.destination();
        Layout layout = dst.layout();
        if (dst.isInteger() || (layout != Layout.IEEE && layout != Layout.IEEE_FN && layout != Layout.P3109_SIGNED)) {
            return null;
        }
        BigDecimal next = Values.exact(false, dst.maxKept() + 1, dst.quantum(dst.maxExponent()));
        double nextDouble = next.doubleValue();
        boolean doubles = src.format().width() <= 32; // every value is a double, and next one too
        // next lies in the top binade or at the bottom of the one above: only inputs in the top one can fall short of it
        LongPredicate top = inBinade(src, dst.maxExponent());
        long sign = dst.signBit();
        long largest = dst.largestFinite(false);
        return Faulty.after(saturating, (x, r) -> {
            if ((r & ~sign) != largest || !top.test(x)) {
                return r; // the value did not saturate, or lies beyond next: no carry to take
            }
            Decoded in = src.decode(x);
            if (r != dst.largestFinite(in.negative())
                    || (doubles ? Math.scalb((double) in.significand(), in.exponent()) >= nextDouble
                    : Values.exact(false, in.significand(), in.exponent()).compareTo(next) >= 0)) {
                return r;
            }
            Decoded unbounded = dst.decode(unsaturated.apply(x));
            boolean roundsUp = unbounded.kind() != Decoded.Kind.FINITE && unbounded.kind() != Decoded.Kind.ZERO;
            return roundsUp ? (dst.largestFinite(false) + 1 | (in.negative() ? dst.signBit() : 0)) & dst.mask() : r;
        });
    }

    /** The right results with every subnormal one made a zero of its sign: decision subnormal-results=flush. */
    static Faulty flushed(Converter right) {
        FormatCodec dst = right.destination();
        if (dst.layout() == Layout.IEEE || dst.layout() == Layout.IEEE_FN) { // subnormals: below the smallest normal's bits
            long sign = dst.signBit();
            long normal = dst.encode(false, 1, dst.minExponent());
            return Faulty.after(right, (x, r) -> (r & ~sign) != 0 && (r & ~sign) < normal ? dst.zero((r & sign) != 0) : r);
        }
        return Faulty.after(right, (x, r) -> {
            Decoded d = dst.decode(r);
            return d.kind() == Decoded.Kind.FINITE && d.binade() < dst.minExponent() ? dst.zero(d.negative()) : r;
        });
    }

    /** Whether an input's magnitude lies in binade e: by its bits where the layout orders magnitudes, else decoded. */
    private static LongPredicate inBinade(FormatCodec src, int e) {
        Layout l = src.layout();
        if ((l == Layout.IEEE || l == Layout.IEEE_FN || l == Layout.P3109_SIGNED) && e >= src.minExponent()) {
            if (e > src.maxExponent()) {
                return x -> false;
            }
            long lo = src.encode(false, 1, e);
            long hi = e + 1 <= src.maxExponent() ? src.encode(false, 1, e + 1) : src.largestFinite(false) + 1;
            long magnitude = src.mask() & ~src.signBit();
            return x -> (x & magnitude) >= lo && (x & magnitude) < hi;
        }
        return x -> {
            Decoded d = src.decode(x);
            return d.kind() == Decoded.Kind.FINITE && d.binade() == e;
        };
    }

    /**
     * A rounding that carries out of the significand into the next binade loses the carry: the result keeps
     * the input's binade with a significand of zeros, 2^e where 2^(e+1) was due (sign-magnitude binary
     * formats, normal results).
     */
    private static Faulty carryDropped(Converter right) {
        FormatCodec src = right.source();
        FormatCodec dst = right.destination();
        if (dst.isInteger() || (dst.layout() != Layout.IEEE && dst.layout() != Layout.IEEE_FN)) {
            return null;
        }
        long field = 1L << dst.format().mantissaBits();
        return Faulty.after(right, (x, r) -> {
            Decoded in = src.decode(x);
            if (in.kind() != Decoded.Kind.FINITE || in.binade() < dst.minExponent()) {
                return r;
            }
            Decoded out = dst.decode(r);
            return out.kind() == Decoded.Kind.FINITE && out.binade() == in.binade() + 1 && (r & (field - 1)) == 0 ? r - field : r;
        });
    }

    /**
     * A binade at the edge of a band where hybrid rounding compares (tapered.csv): its neighbour on one
     * side rounds ties-away. An implementation whose band starts or ends one binade off treats it as TA.
     */
    private static boolean bandEdge(FormatCodec dst, int e) {
        if (e < dst.minExponent() - 1 || e > dst.maxExponent()) {
            return false;
        }
        boolean compares = dst.taperedRow(e).hybrid().equals("compare");
        boolean below = e - 1 >= dst.minExponent() && !dst.taperedRow(e - 1).hybrid().equals("compare");
        boolean above = e + 1 <= dst.maxExponent() && !dst.taperedRow(e + 1).hybrid().equals("compare");
        return compares && (below || above);
    }
}
