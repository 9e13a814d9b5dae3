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
import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Format;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.SaturationRule;
import convcert.spec.ScaleLane;
import convcert.spi.CtrlState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Turns a fault row into a faulty implementation of one case: the reference with other semantics,
 * another mode, other control inputs or saturation, or the reference's result or input transformed.
 * Returns null where the fault cannot arise (it does not apply, or would change nothing by design).
 */
public final class FaultModel {

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

    public Faulty implementation(Fault f, Case c) {
        if (!applies(f, c)) {
            return null;
        }
        Converter right = reference.converter(c);
        FormatCodec src = right.source();
        FormatCodec dst = right.destination();
        String p = f.parameter();
        return switch (f.mechanism()) {
            case TIES -> ties(c, right, p);
            case ROUNDING -> rounding(c, right, p);
            case INPUT -> input(right, src, p);
            case VIA -> via(c, p);
            case DECISION -> decision(c, p);
            case SATURATION -> saturation(c, p);
            case CONTROL -> control(c, p);
            case OUTPUT -> OutputFaults.of(p, right, new OutputFaults.Others() {
                @Override
                public Converter withSaturation(Saturation s) {
                    return reference.converter(FaultModel.this.withSaturation(c, s));
                }

                @Override
                public Converter withMode(Rounding mode) {
                    return reference.converter(FaultModel.this.withMode(c, mode));
                }
            }, c.rounding() == Rounding.RH);
            case SCALE -> scale(c, right, p);
            case FLAGS -> Faulty.of(right); // its results are right; its flags (below) are not
            case BLOCK -> throw new IllegalArgumentException("a quantizer's fault (BlockFaults): " + f.id());
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
        if (f.mechanism() == Mechanism.DECISION && FLAG_DECISIONS.contains(f.parameter().split("=", 2)[0])) {
            String[] kv = f.parameter().split("=", 2);
            String chosen = reference.semantics().choices().get(kv[0]);
            return chosen == null || chosen.equals(kv[1]) ? null : otherReading(c, f.parameter()).flags()::of;
        }
        if (f.mechanism() != Mechanism.FLAGS) {
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

    /**
     * Whether an input of the case lies exactly halfway between its two neighbours in the destination (a tie
     * of rounding to nearest), whatever the case's mode: what a diagnosis says of its mismatches. Null where
     * the case has no inputs between two results (a stochastic or scaled case, an integer-to-integer pair).
     */
    public LongPredicate ties(Case c) {
        if (c.rounding().stochastic() || c.conversion().scale() != null || c.rounding() == Rounding.RH
                || (c.conversion().from().isInteger() && c.conversion().to().isInteger())) {
            return null;
        }
        Converter away = reference.converter(withMode(c, Rounding.RNA));
        Converter towardZero = reference.converter(withMode(c, Rounding.RZ));
        return TieFaults.test(away, towardZero);
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
     * At a tie the result goes elsewhere than to the even neighbour (TieFaults): away from zero, toward
     * zero or up, everywhere, or away only below the smallest normal value (a subnormal path of its own).
     */
    private Faulty ties(Case c, Converter rn, String how) {
        if (c.rounding() != Rounding.RN) {
            return null;
        }
        Converter away = reference.converter(withMode(c, Rounding.RNA));
        Converter towardZero = reference.converter(withMode(c, Rounding.RZ));
        return switch (how) {
            case "away" -> TieFaults.of(rn, away, away, towardZero, false);
            case "away-subnormal" -> rn.destination().isInteger() ? null : TieFaults.of(rn, away, away, towardZero, true);
            case "toward-zero" -> TieFaults.of(rn, towardZero, away, towardZero, false);
            case "up" -> TieFaults.of(rn, reference.converter(withMode(c, Rounding.RU)), away, towardZero, false);
            default -> throw new IllegalArgumentException("ties " + how);
        };
    }

    private Faulty rounding(Case c, Converter right, String p) {
        if (p.equals("swap-directed-negative")) {
            if (c.rounding() != Rounding.RU && c.rounding() != Rounding.RD) {
                return null;
            }
            Converter swapped = reference.converter(withMode(c, c.rounding() == Rounding.RU ? Rounding.RD : Rounding.RU));
            FormatCodec src = right.source();
            return Faulty.where(x -> src.decode(x).negative(), swapped, right);
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
        Rounding from = Rounding.named(ab[0]);
        Rounding to = Rounding.named(ab[1]);
        boolean applies = from == Rounding.RS ? c.rounding().stochastic() : c.rounding() == from; // rs: any stochastic mode
        if (!applies || c.rounding() == to || (to == Rounding.RH && reference.tables().hybridRule(c.conversion().from()) == null)) {
            return null;
        }
        return Faulty.of(reference.converter(withMode(c, to)));
    }

    /**
     * A scaled conversion that mishandles its scale: ignores it, applies it the wrong way, reads a
     * signed scale as unsigned, or rounds the unscaled value first and scales that (rounding twice).
     */
    private Faulty scale(Case c, Converter right, String p) {
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

    private Faulty input(Converter right, FormatCodec src, String p) {
        if (p.startsWith("drop-low-bits=")) {
            int k = Integer.parseInt(p.substring(p.indexOf('=') + 1));
            if (src.format().width() <= k + 8) {
                return null; // narrow sources are covered exhaustively; the fault is about wide inputs
            }
            long mask = ~((1L << k) - 1);
            return Faulty.before(right, x -> src.decode(x).kind() == Decoded.Kind.FINITE ? x & mask : x);
        }
        if (p.equals("drop-below-guard")) {
            return StickyFaults.belowGuard(right);
        }
        if (p.equals("subnormals-as-zero")) {
            if (src.isInteger()) {
                return null;
            }
            return Faulty.before(right, x -> {
                Decoded d = src.decode(x);
                boolean subnormal = d.kind() == Decoded.Kind.FINITE && d.binade() < src.minExponent();
                return subnormal ? x & (src.signBit() | ~src.mask()) : x; // a lane above stays
            });
        }
        throw new IllegalArgumentException("input " + p);
    }

    /**
     * Double rounding: to the intermediate format with rn, then to the destination in the case's mode
     * (not for stochastic rounding or a scale, which belong to the one rounding).
     */
    private Faulty via(Case c, String intermediate) {
        Format mid = reference.tables().findFormat(intermediate);
        Conversion conv = c.conversion();
        if (mid == null || c.rounding().stochastic() || conv.scale() != null || mid.equals(conv.from()) || mid.equals(conv.to())
                || mid.isInteger() || !FaultScope.narrowing(conv.from(), mid) || FaultScope.narrowing(conv.to(), mid)
                || !FaultScope.narrowing(mid, conv.to())) {
            return null;
        }
        Converter first = reference.unlisted(conv.from(), mid, Rounding.RN);
        Conversion second = new Conversion(mid, conv.to(), conv.modes(), conv.forms(), conv.group(), conv.implicitRounding(),
                conv.api(), conv.source(), conv.location());
        Converter then = reference.converter(new Case(second, c.rounding(), c.form(), c.ctrl(), c.rule()));
        return Faulty.composed(first, then);
    }

    /** Why a fault that its applies words admit changes nothing in this profile (FaultScope). */
    public String whyInert(Fault f) {
        return scope.whyInert(f);
    }

    private Faulty decision(Case c, String p) {
        String[] kv = p.split("=", 2);
        Map<String, String> choices = reference.semantics().choices();
        if (!choices.containsKey(kv[0]) || choices.get(kv[0]).equals(kv[1])) {
            return null;
        }
        if (p.equals("subnormal-results=flush") && !reference.converter(c).destination().isInteger()) {
            // the reading flushes a result rounded into the subnormals: the right result, flushed afterwards, which
            // runs on the fast paths (the reading's own converter has none); FaultFastPathTest holds them equal
            return OutputFaults.flushed(reference.converter(c));
        }
        return Faulty.of(otherReading(c, p));
    }

    /** The case's converter with decision=option instead of the profile's choice. */
    private Converter otherReading(Case c, String p) {
        String[] kv = p.split("=", 2);
        Map<String, String> changed = new LinkedHashMap<>(reference.semantics().choices());
        changed.put(kv[0], kv[1]);
        return new Reference(reference.tables(), Semantics.of(reference.tables(), changed)).converter(c);
    }

    private Faulty saturation(Case c, String p) {
        Saturation effective = Saturation.parse(p);
        if (c.saturation() == effective || (effective == Saturation.WRAP && !c.conversion().to().isInteger())) {
            return null; // nothing changes, or wrapping has no meaning for a floating destination
        }
        return Faulty.of(reference.converter(withSaturation(c, effective)));
    }

    private Faulty control(Case c, String p) {
        String[] kv = p.split("=", 2);
        Form form = c.form();
        CtrlState ctrl = c.ctrl();
        if (kv[0].equals("form")) {
            if (form == Form.IMPLICIT) {
                return null;
            }
            form = Form.named(kv[1]);
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
        return Faulty.of(reference.converter(wrong));
    }
}
