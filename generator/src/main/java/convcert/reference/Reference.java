package convcert.reference;

import convcert.common.Suggest;
import convcert.common.UsageException;
import convcert.spec.BlockFormat;
import convcert.spec.Conversion;
import convcert.spec.CtrlBit;
import convcert.spec.Form;
import convcert.spec.Format;
import convcert.spec.Location;
import convcert.spec.Rounding;
import convcert.spec.Saturation;
import convcert.spec.SaturationRule;
import convcert.spec.SpecTables;
import convcert.spi.CaseKey;
import convcert.spi.CtrlState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The reference of one profile: spec tables plus the chosen decision options. It resolves API-level
 * requests (types by any alias, rounding suffix, form, CTRL bits) into {@link Case}s and builds their
 * {@link Converter}s.
 */
public final class Reference {

    private final SpecTables tables;
    private final Semantics semantics;
    private final CaseNames names;
    private final Map<String, FormatCodec> codecs = new ConcurrentHashMap<>();

    public Reference(SpecTables tables, Semantics semantics) {
        this.tables = tables;
        this.semantics = semantics;
        this.names = new CaseNames(tables);
    }

    public static Reference of(SpecTables tables) {
        return new Reference(tables, Semantics.defaults(tables));
    }

    public SpecTables tables() {
        return tables;
    }

    public Semantics semantics() {
        return semantics;
    }

    public FormatCodec codec(Format format) {
        return codecs.computeIfAbsent(format.name(), n -> new FormatCodec(format, tables));
    }

    public Format format(String nameOrAlias) {
        Format f = tables.findFormat(nameOrAlias);
        var block = f == null ? tables.findBlock(nameOrAlias) : null;
        if (block != null) {
            throw new UsageException("'" + nameOrAlias + "' is a block format (blocks.csv), not a pair's type: select its "
                    + "cases with --only '" + block.value().name() + "->" + block.name() + "/*' or --only '" + block.name()
                    + "->*' (certify; generate writes block cases when run without --pair)");
        }
        if (f == null) {
            List<String> names = new ArrayList<>();
            tables.formats().forEach(t -> {
                names.add(t.name());
                names.addAll(t.aliases());
            });
            throw new UsageException("unknown type '" + nameOrAlias + "'" + Suggest.nearest(nameOrAlias, names) + "; known types: "
                    + tables.formats().stream().map(Format::name).collect(Collectors.joining(" ")) + "; and their aliases: "
                    + tables.formats().stream().map(t -> t.name() + "=" + String.join("|", t.aliases()))
                    .collect(Collectors.joining(" ")));
        }
        return f;
    }

    /** FROM:TO selections (--pair, -Dconvcert.pairs) as conversions of the profile, each once however often named. */
    public List<Conversion> pairs(List<String> pairs) {
        List<Conversion> selected = new ArrayList<>();
        for (String p : pairs) {
            String[] parts = p.split(":", 2);
            if (parts.length != 2) {
                throw new UsageException("bad --pair '" + p + "'; expected FROM:TO, e.g. float:half");
            }
            Conversion c = conversion(parts[0].strip(), parts[1].strip());
            if (!selected.contains(c)) {
                selected.add(c);
            }
        }
        return selected;
    }

    public Conversion conversion(String from, String to) {
        Format source = format(from);
        Format destination = format(to);
        Conversion c = tables.conversion(source, destination);
        if (c == null) {
            String offered = tables.conversions().stream().filter(x -> x.from().equals(source))
                    .map(x -> x.to().name()).collect(Collectors.joining(" "));
            throw new UsageException("the " + tables.profile() + " profile offers no conversion " + source.name()
                    + " -> " + destination.name() + (offered.isEmpty() ? "" : "; from " + source.name() + " it offers: "
                    + offered));
        }
        return c;
    }

    /**
     * Resolves a request. rounding and form may be null: rounding then defaults to the pair's implicit
     * one (Table 1) or its only mode; form to nosat where offered, else sat.
     */
    public Case resolve(String from, String to, String rounding, String form, CtrlState ctrl) {
        Conversion c = conversion(from, to);
        Form f = form != null ? Form.named(form) : null;
        Rounding mode;
        if (rounding == null) {
            if (f == Form.IMPLICIT && c.implicitRounding() != null) {
                mode = c.implicitRounding();
            } else if (c.modes().size() == 1) {
                mode = c.modes().iterator().next();
            } else {
                throw new UsageException(c.pairName() + " needs --rounding; it offers " + modes(c));
            }
        } else {
            mode = Rounding.named(rounding);
        }
        if (f == null) {
            f = Form.EXPLICIT.stream().filter(c.forms(mode)::contains).findFirst().orElseThrow();
        }
        return resolve(c, mode, f, ctrl);
    }

    /**
     * The case a key names (a manifest entry's variant, an adapter's request): its pair, rounding and
     * form, and its CTRL bits over the power-on values. The one way from a case's name to a Case.
     */
    public Case resolve(CaseKey key) {
        return resolve(conversion(key.from(), key.to()), Rounding.named(key.rounding()), Form.named(key.form()), ctrl(key.ctrl()));
    }

    public Case resolve(Conversion c, Rounding mode, Form form, CtrlState ctrl) {
        if (form == Form.IMPLICIT) {
            if (c.implicitRounding() == null) {
                throw new UsageException(c.pairName() + " has no implicit conversion (Table 1)");
            }
            if (mode != c.implicitRounding()) {
                throw new UsageException("the implicit " + c.pairName() + " conversion rounds "
                        + c.implicitRounding().suffix() + " (Table 1), not " + mode.suffix());
            }
        } else {
            if (!c.modes().contains(mode)) {
                throw new UsageException(c.pairName() + " does not offer rounding " + mode.suffix() + "; it offers "
                        + modes(c));
            }
            if (!c.forms(mode).contains(form)) {
                throw new UsageException(c.pairName() + " has no " + form.tableName() + " form" + (c.forms(mode) != c.forms()
                        ? " under " + mode.suffix() : "") + "; it offers "
                                + c.forms(mode).stream().map(Form::tableName).sorted().collect(Collectors.joining(" ")));
            }
        }
        SaturationRule rule = tables.saturationRule(c.group(), form, ctrl);
        return new Case(c, mode, form, ctrl, rule);
    }

    /**
     * The distinct saturation behaviours a (pair, mode) can show, each with one way to select it: the
     * first setting of ctrl.csv's bits (rows in order, the first changing fastest, each from its
     * tried_first value) and form (nosat, then sat) that gives it. Behaviours differ by the effective
     * saturation and, for destinations with sat_nan=ctrlNN under saturation, by that bit. Labels:
     * nosat, sat, wrap, sat-keepnan.
     */
    public List<Case> saturationStates(Conversion c, Rounding mode) {
        Map<String, Case> states = new LinkedHashMap<>();
        List<CtrlState> ctrls = new ArrayList<>();
        List<CtrlBit> bits = List.copyOf(tables.ctrlBits().values()); // ctrl.csv order
        for (int g = 0; g < 1 << bits.size(); g++) {
            CtrlState ctrl = tables.powerOnCtrl();
            for (int i = 0; i < bits.size(); i++) {
                ctrl = ctrl.with(bits.get(i).bit(), bits.get(i).triedFirst() ^ ((g >> i) & 1));
            }
            if (!ctrls.contains(ctrl)) {
                ctrls.add(ctrl);
            }
        }
        for (CtrlState ctrl : ctrls) {
            for (Form form : Form.EXPLICIT) {
                if (c.forms(mode).contains(form)) {
                    Case candidate = resolve(c, mode, form, ctrl);
                    states.putIfAbsent(candidate.stateLabel(), candidate);
                }
            }
        }
        return List.copyOf(states.values());
    }

    /**
     * Every way to ask for each saturation behaviour of a (pair, mode): the API forms (implicit too,
     * where Table 1 gives the pair an implicit conversion with this mode) times every setting of the
     * CTRL bits that the pair's saturation rows consult (and the sat_nan bit of its destination), other
     * bits at power-on. Keyed by state label; each list starts with the variant saturationStates
     * picks (the primary), so an implementation that ignores one of those bits or the suffix
     * disagrees with some variant.
     */
    public Map<String, List<Case>> saturationVariants(Conversion c, Rounding mode) {
        Map<String, List<Case>> variants = new LinkedHashMap<>();
        for (Case primary : saturationStates(c, mode)) {
            variants.put(primary.stateLabel(), new ArrayList<>(List.of(primary)));
        }
        List<Integer> bits = tables.consultedBits(c);
        List<Form> forms = new ArrayList<>();
        for (Form f : Form.EXPLICIT) {
            if (c.forms(mode).contains(f)) {
                forms.add(f);
            }
        }
        if (mode == c.implicitRounding()) {
            forms.add(Form.IMPLICIT);
        }
        for (Form form : forms) {
            for (int combination = 0; combination < 1 << bits.size(); combination++) {
                CtrlState ctrl = tables.powerOnCtrl();
                for (int i = 0; i < bits.size(); i++) {
                    ctrl = ctrl.with(bits.get(i), (combination >> i) & 1);
                }
                Case variant = resolve(c, mode, form, ctrl);
                List<Case> same = variants.computeIfAbsent(variant.stateLabel(), k -> new ArrayList<>());
                String label = names.variantLabel(variant);
                if (same.stream().noneMatch(v -> names.variantLabel(v).equals(label))) { // bits not consulted stay as they are
                    same.add(variant);
                }
            }
        }
        return variants;
    }

    /** How this reference's cases are named: identities and variants' labels. */
    public CaseNames names() {
        return names;
    }

    private static String modes(Conversion c) {
        return c.modes().stream().sorted().map(Rounding::suffix).collect(Collectors.joining(" "));
    }

    public Converter converter(Case spec) {
        Conversion c = spec.conversion();
        return new Converter(spec, semantics, codec(c.from()), codec(c.to()),
                spec.rounding() == Rounding.RH ? tables.hybridRule(c.from()) : null);
    }

    /**
     * A conversion the tables need not offer, non-saturating: tools use it to find a format's values
     * next to a given value (double -> float with rd and ru, say). Not a certified case.
     */
    public Converter unlisted(Format from, Format to, Rounding mode) {
        return unlisted(from, to, mode, Saturation.NOSAT, "(not an API conversion)");
    }

    /** As above with the given saturation; why names the use in explanations. */
    Converter unlisted(Format from, Format to, Rounding mode, Saturation saturation, String why) {
        return unlisted(from, to, mode, saturation, 0, why);
    }

    /** As above, each value taking randomBits random bits above it under a stochastic mode (a block's elements). */
    Converter unlisted(Format from, Format to, Rounding mode, Saturation saturation, int randomBits, String why) {
        Location none = new Location(Path.of("-"), 0, 0);
        Conversion c = new Conversion(from, to, Set.of(mode), Set.of(Form.NOSAT), "-", null, why, "tool", none, null,
                mode.stochastic() ? randomBits : 0, Set.of(), null, false);
        SaturationRule rule = new SaturationRule("-", Map.of(), null, saturation, why, c.location());
        Case spec = new Case(c, mode, Form.NOSAT, tables.powerOnCtrl(), rule);
        return new Converter(spec, semantics, codec(from), codec(to),
                mode == Rounding.RH ? tables.hybridRule(from) : null);
    }

    /** A block-scaled format's conversion: value -> block rounding elements in mode, or block -> value. */
    public BlockConverter blockConverter(BlockFormat block, Rounding mode, boolean toBlock) {
        return new BlockConverter(this, block, mode, toBlock, null);
    }

    /** The same with each element converted by elements instead of the reference (a fault model's conversion). */
    public BlockConverter blockConverter(BlockFormat block, Rounding mode, boolean toBlock, ElementConversion elements) {
        return new BlockConverter(this, block, mode, toBlock, elements);
    }

    /** Power-on CTRL with these bits changed; a bit ctrl.csv does not list, or a value not 0 or 1, is a usage error. */
    public CtrlState ctrl(Map<Integer, Integer> changed) {
        CtrlState state = tables.powerOnCtrl();
        for (var bit : changed.entrySet()) {
            if (!state.bits().containsKey(bit.getKey())) {
                throw new UsageException("CTRL[" + bit.getKey() + "] does not take part in conversions; known bits: "
                        + state.bits().keySet());
            }
            if (bit.getValue() == null || (bit.getValue() != 0 && bit.getValue() != 1)) {
                throw new UsageException("CTRL[" + bit.getKey() + "]=" + bit.getValue() + ": a bit is 0 or 1");
            }
            state = state.with(bit.getKey(), bit.getValue());
        }
        return state;
    }

    /** Power-on CTRL with the given bits changed; "60=0,48=1" style. */
    public CtrlState ctrl(String settings) {
        CtrlState state = tables.powerOnCtrl();
        if (settings == null || settings.isBlank()) {
            return state;
        }
        Map<Integer, Integer> bits = new TreeMap<>(state.bits());
        for (String setting : settings.split("[,\\s]+")) {
            String[] parts = setting.split("=", 2);
            try {
                int bit = Integer.parseInt(parts[0].replaceAll("(?i)^ctrl\\[?|]$", ""));
                if (!bits.containsKey(bit)) {
                    throw new UsageException("CTRL[" + bit + "] does not take part in conversions; known bits: "
                            + bits.keySet());
                }
                int value = Integer.parseInt(parts.length == 2 ? parts[1] : "x");
                if (value != 0 && value != 1) {
                    throw new NumberFormatException();
                }
                bits.put(bit, value);
            } catch (NumberFormatException e) {
                throw new UsageException("bad CTRL setting '" + setting + "'; expected BIT=0 or BIT=1, e.g. 60=0,48=1");
            }
        }
        return new CtrlState(bits);
    }
}
