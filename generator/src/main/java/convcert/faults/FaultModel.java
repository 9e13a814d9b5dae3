package convcert.faults;

import convcert.common.UsageException;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.Flags;
import convcert.reference.FormatCodec;
import convcert.reference.Operands;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.reference.Values;
import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.SaturationRule;
import convcert.spec.ScaleLane;
import convcert.spi.CtrlState;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a fault row into a faulty implementation of one case: the reference with other semantics,
 * another mode, other control inputs or saturation, or the reference's result or input transformed.
 * Returns null where the fault cannot arise (it does not apply, or would change nothing by design).
 */
public final class FaultModel {

    /** A faulty implementation: input bits to output bits. */
    public interface Implementation {
        long apply(long input);
    }

    /** The exception flags a faulty implementation raises converting an input to its output. */
    public interface FlagsImplementation {
        int of(long input, long output);
    }

    /** The decisions that change a conversion's flags and never its result. */
    private static final List<String> FLAG_DECISIONS = List.of("tininess", "underflow-flag", "overflow-flag");

    private final Reference reference;
    private final FaultScope scope;

    public FaultModel(Reference reference) {
        this.reference = reference;
        this.scope = new FaultScope(reference);
    }

    public Implementation implementation(Fault f, Case c) {
        if (!applies(f, c)) {
            return null;
        }
        Converter right = reference.converter(c);
        FormatCodec src = right.source();
        FormatCodec dst = right.destination();
        String p = f.parameter();
        return switch (f.mechanism()) {
            case "ties" -> ties(c, right, p);
            case "rounding" -> rounding(c, right, p);
            case "input" -> input(right, src, p);
            case "via" -> via(c, p);
            case "decision" -> decision(c, p);
            case "saturation" -> saturation(c, p);
            case "control" -> control(c, p);
            case "output" -> output(c, right, src, dst, p);
            case "scale" -> scale(c, right, p);
            case "flags" -> right::apply; // its results are right; its flags (below) are not
            default -> throw new IllegalArgumentException(f.mechanism());
        };
    }

    /**
     * The flags of a fault that is about flags, in a profile with a flags lane: a flags decision read
     * the other way, or the right flags with one mistake (mechanism flags); null for every other fault,
     * whose results are what it changes.
     */
    public FlagsImplementation flags(Fault f, Case c) {
        if (!reference.tables().hasFlags() || !applies(f, c)) {
            return null;
        }
        Converter right = reference.converter(c);
        Flags flags = right.flags();
        FormatCodec src = right.source();
        if (f.mechanism().equals("decision") && FLAG_DECISIONS.contains(f.parameter().split("=", 2)[0])) {
            String[] kv = f.parameter().split("=", 2);
            String chosen = reference.semantics().choices().get(kv[0]);
            return chosen == null || chosen.equals(kv[1]) ? null : otherReading(c, f.parameter()).flags()::of;
        }
        if (!f.mechanism().equals("flags")) {
            return null;
        }
        return switch (f.parameter()) {
            case "no-inexact" -> (x, y) -> flags.of(x, y) & ~Flags.INEXACT;
            case "overflow-without-inexact" -> (x, y) -> {
                int raised = flags.of(x, y);
                return (raised & Flags.OVERFLOW) != 0 ? raised & ~Flags.INEXACT : raised;
            };
            case "quiet-nan-invalid" -> (x, y) -> src.decode(x).kind() == Decoded.Kind.NAN ? flags.of(x, y) | Flags.INVALID
                    : flags.of(x, y);
            case "none" -> (x, y) -> 0;
            default -> throw new IllegalArgumentException("flags " + f.parameter());
        };
    }

    /** The applies words: modes, states and kinds of conversion, each category a disjunction (FaultScope). */
    public boolean applies(Fault f, Case c) {
        return scope.applies(f, c);
    }

    private Case withMode(Case c, Rounding mode) {
        return new Case(c.conversion(), mode, c.form(), c.ctrl(), c.rule());
    }

    private Case withSaturation(Case c, Saturation effective) {
        SaturationRule r = c.rule();
        return new Case(c.conversion(), c.rounding(), c.form(), c.ctrl(), new SaturationRule(r.group(), Map.of(), null,
                effective, "fault", r.location()));
    }

    /**
     * At a tie the result goes elsewhere than to the even neighbour. A tie is an input exactly halfway
     * between its two neighbours (toward zero: rz; away: rna), checked in exact arithmetic.
     */
    private Implementation ties(Case c, Converter rn, String how) {
        if (c.rounding() != Rounding.RN) {
            return null;
        }
        Converter away = reference.converter(withMode(c, Rounding.RNA));
        Converter towardZero = reference.converter(withMode(c, Rounding.RZ));
        Converter other = switch (how) {
            case "away" -> away;
            case "toward-zero" -> towardZero;
            case "up" -> reference.converter(withMode(c, Rounding.RU));
            default -> throw new IllegalArgumentException("ties " + how);
        };
        FormatCodec src = rn.source();
        FormatCodec dst = rn.destination();
        // Above the largest finite value the next grid point stands where the format ends: a tie there
        // (between the largest finite and overflow) is a tie like any other.
        BigDecimal beyond = dst.isInteger() ? null : Values.exact(false, dst.maxKept() + 1, dst.quantum(dst.maxExponent()));
        return x -> {
            long a = away.apply(x);
            long z = towardZero.apply(x);
            if (a == z) {
                return rn.apply(x); // exact: no tie
            }
            Decoded da = dst.decode(a);
            Decoded dz = dst.decode(z);
            Decoded dx = src.decode(x);
            // a finite input rounded away past the largest finite value: infinity, or NaN where there is none
            boolean overflowed = da.kind() == Decoded.Kind.INFINITE || (da.kind() == Decoded.Kind.NAN && !dst.hasInfinity());
            if (dx.kind() != Decoded.Kind.FINITE || (da.kind() == Decoded.Kind.NAN && !overflowed)
                    || (overflowed && beyond == null)) {
                return rn.apply(x);
            }
            BigDecimal up = overflowed ? beyond : magnitude(da);
            boolean tie = magnitude(dx).multiply(BigDecimal.TWO).compareTo(up.add(magnitude(dz))) == 0;
            return tie ? other.apply(x) : rn.apply(x);
        };
    }

    private static BigDecimal magnitude(Decoded d) {
        return d.kind() == Decoded.Kind.FINITE ? Values.exact(false, d.significand(), d.exponent())
                : BigDecimal.ZERO;
    }

    private Implementation rounding(Case c, Converter right, String p) {
        if (p.equals("swap-directed-negative")) {
            if (c.rounding() != Rounding.RU && c.rounding() != Rounding.RD) {
                return null;
            }
            Converter swapped = reference.converter(withMode(c, c.rounding() == Rounding.RU ? Rounding.RD : Rounding.RU));
            FormatCodec src = right.source();
            return x -> src.decode(x).negative() ? swapped.apply(x) : right.apply(x);
        }
        if (p.equals("rs-added-at-source-lsb")) {
            if (!c.rounding().stochastic()) {
                return null;
            }
            Converter truncating = reference.converter(withMode(c, Rounding.RZ));
            FormatCodec src = right.source();
            long magnitude = src.mask() & ~src.signBit(); // a scale field above the value stays
            return x -> src.decode(x).kind() != Decoded.Kind.FINITE ? truncating.apply(x)
                    : truncating.apply(x & ~src.mask() | x & src.signBit() | (x & magnitude) + right.operands().random(x) & magnitude);
        }
        if (p.equals("rs-seed-low-bits")) { // the random bits are a 32-bit seed's top N bits; this takes its low N
            int n = right.operands().randomBits();
            if (!c.rounding().stochastic() || n == 0 || n >= 32) {
                return null;
            }
            Operands o = right.operands();
            return x -> right.apply(o.withRandom(x, o.random(x) << (32 - n) & ((1L << n) - 1)));
        }
        String[] ab = p.split("->");
        Rounding from = Reference.rounding(ab[0]);
        Rounding to = Reference.rounding(ab[1]);
        boolean applies = from == Rounding.RS ? c.rounding().stochastic() : c.rounding() == from; // rs: any stochastic mode
        if (!applies || c.rounding() == to || (to == Rounding.RH && reference.tables().hybridRule(c.conversion().from()) == null)) {
            return null;
        }
        Converter wrong = reference.converter(withMode(c, to));
        return wrong::apply;
    }

    /**
     * A scaled conversion that mishandles its scale: ignores it, applies it the wrong way, reads a
     * signed scale as unsigned, or rounds the unscaled value first and scales that (rounding twice).
     */
    private Implementation scale(Case c, Converter right, String p) {
        ScaleLane lane = c.conversion().scale();
        Operands o = right.operands();
        return switch (p) {
            case "ignored" -> x -> right.applyScaled(o.withoutScale(x), 0);
            case "negated" -> x -> right.applyScaled(o.withoutScale(x), -o.scaleExponent(x));
            case "unsigned" -> x -> right.applyScaled(o.withoutScale(x), (int) (lane.divides() ? -o.scaleCode(x) : o.scaleCode(x)));
            case "after-rounding" -> { // the first rounding keeps any random bits; the second, back to the source, is exact
                Converter back = reference.unlisted(c.conversion().to(), c.conversion().from(), Rounding.RN);
                yield x -> right.applyScaled(back.apply(right.applyScaled(o.withoutScale(x), 0)), o.scaleExponent(x));
            }
            default -> throw new IllegalArgumentException("scale " + p);
        };
    }

    private Implementation input(Converter right, FormatCodec src, String p) {
        if (p.startsWith("drop-low-bits=")) {
            int k = Integer.parseInt(p.substring(p.indexOf('=') + 1));
            if (src.format().width() <= k + 8) {
                return null; // narrow sources are covered exhaustively; the fault is about wide inputs
            }
            long mask = ~((1L << k) - 1);
            return x -> {
                Decoded d = src.decode(x);
                return d.kind() == Decoded.Kind.FINITE ? right.apply(x & mask) : right.apply(x);
            };
        }
        if (p.equals("subnormals-as-zero")) {
            if (src.isInteger()) {
                return null;
            }
            return x -> {
                Decoded d = src.decode(x);
                boolean subnormal = d.kind() == Decoded.Kind.FINITE && d.binade() < src.minExponent();
                return right.apply(subnormal ? x & (src.signBit() | ~src.mask()) : x); // a lane above stays
            };
        }
        throw new IllegalArgumentException("input " + p);
    }

    /**
     * Double rounding: to the intermediate format with rn, then to the destination in the case's mode
     * (not for stochastic rounding or a scale, which belong to the one rounding).
     */
    private Implementation via(Case c, String intermediate) {
        Format mid = reference.tables().findFormat(intermediate);
        Conversion conv = c.conversion();
        if (mid == null || c.rounding().stochastic() || conv.scale() != null || mid.equals(conv.from()) || mid.equals(conv.to()) || mid.isInteger()
                || !FaultScope.narrowing(conv.from(), mid) || FaultScope.narrowing(conv.to(), mid) || !FaultScope.narrowing(mid, conv.to())) {
            return null;
        }
        Converter first = reference.unlisted(conv.from(), mid, Rounding.RN);
        Conversion second = new Conversion(mid, conv.to(), conv.modes(), conv.forms(), conv.group(), conv.implicitRounding(),
                conv.api(), conv.source(), conv.location());
        Converter then = reference.converter(new Case(second, c.rounding(), c.form(), c.ctrl(), c.rule()));
        return x -> then.apply(first.apply(x));
    }

    /** Why a fault that its applies words admit changes nothing in this profile (FaultScope). */
    public String whyInert(Fault f) {
        return scope.whyInert(f);
    }

    private Implementation decision(Case c, String p) {
        String[] kv = p.split("=", 2);
        Map<String, String> choices = reference.semantics().choices();
        if (!choices.containsKey(kv[0]) || choices.get(kv[0]).equals(kv[1])) {
            return null;
        }
        return otherReading(c, p)::apply;
    }

    /** The case's converter with decision=option instead of the profile's choice. */
    private Converter otherReading(Case c, String p) {
        String[] kv = p.split("=", 2);
        Map<String, String> changed = new LinkedHashMap<>(reference.semantics().choices());
        changed.put(kv[0], kv[1]);
        return new Reference(reference.tables(), Semantics.of(reference.tables(), changed)).converter(c);
    }

    private Implementation saturation(Case c, String p) {
        Saturation effective = Saturation.parse(p);
        if (c.saturation() == effective || (effective == Saturation.WRAP && !c.conversion().to().isInteger())) {
            return null; // nothing changes, or wrapping has no meaning for a floating destination
        }
        Converter wrong = reference.converter(withSaturation(c, effective));
        return wrong::apply;
    }

    private Implementation control(Case c, String p) {
        String[] kv = p.split("=", 2);
        Form form = c.form();
        CtrlState ctrl = c.ctrl();
        if (kv[0].equals("form")) {
            if (form == Form.IMPLICIT) {
                return null;
            }
            form = Reference.form(kv[1]);
        } else {
            int bit = Integer.parseInt(kv[0].substring(4));
            if (!ctrl.bits().containsKey(bit)) {
                return null;
            }
            ctrl = ctrl.with(bit, Integer.parseInt(kv[1]));
        }
        Case wrong;
        try {
            wrong = reference.resolve(c.conversion(), c.rounding(), form, ctrl);
        } catch (UsageException notOffered) {
            return null;
        }
        Converter w = reference.converter(wrong);
        return w::apply;
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

    private Implementation output(Case c, Converter right, FormatCodec src, FormatCodec dst, String p) {
        long sign = dst.signBit();
        return switch (p) {
            case "zero-sign-lost" -> x -> {
                long r = right.apply(x);
                return r == sign && dst.decode(r).kind() == Decoded.Kind.ZERO ? 0 : r;
            };
            case "infinity-to-max" -> !dst.hasInfinity() ? null : x -> {
                long r = right.apply(x);
                return dst.decode(r).kind() == Decoded.Kind.INFINITE ? dst.largestFinite(dst.decode(r).negative()) : r;
            };
            case "negative-unsigned-wraps" -> {
                if (src.isInteger() && !src.format().isSigned()) {
                    yield null; // an unsigned source has no negative input
                }
                Converter wrap = reference.converter(withSaturation(c, Saturation.WRAP));
                yield x -> src.decode(x).negative() && src.decode(x).kind() == Decoded.Kind.FINITE ? wrap.apply(x)
                        : right.apply(x);
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
                if (c.rounding() != Rounding.RH || dst.format().layout() != Layout.TAPERED) {
                    yield null;
                }
                Converter ta = reference.converter(withMode(c, Rounding.RNA));
                yield x -> {
                    Decoded in = src.decode(x);
                    return in.kind() == Decoded.Kind.FINITE && bandEdge(dst, in.binade()) ? ta.apply(x) : right.apply(x);
                };
            }
            case "overflow-threshold-late" -> !dst.hasInfinity() ? null : x -> {
                long r = right.apply(x);
                Decoded in = src.decode(x);
                return dst.decode(r).kind() == Decoded.Kind.INFINITE && in.kind() == Decoded.Kind.FINITE
                        && in.binade() <= dst.maxExponent() ? dst.largestFinite(in.negative()) : r;
            };
            default -> throw new IllegalArgumentException("output " + p);
        };
    }
}
