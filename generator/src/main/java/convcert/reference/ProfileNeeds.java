package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import convcert.spec.TensorShape;

/** Which tables need a decision (Semantics.Switch's needs): a profile that offers a mode, a layout, or blocks. */
final class ProfileNeeds {

    private ProfileNeeds() {
    }

    static boolean offers(SpecTables t, Rounding mode) {
        return t.conversions().stream().anyMatch(c -> c.modes().contains(mode));
    }

    static boolean has(SpecTables t, Layout layout) {
        return t.formats().stream().anyMatch(f -> f.layout() == layout);
    }

    /**
     * A conversion or block that produces a format of the layout: a rule for values it cannot hold (a negative
     * or zero E8M0) matters only there, not where the format is only read (LLVM's from-conversions).
     */
    static boolean produces(SpecTables t, Layout layout) {
        return t.conversions().stream().anyMatch(c -> c.to().layout() == layout)
                || t.blocks().values().stream().anyMatch(b -> b.element().layout() == layout
                        || b.scale() != null && b.scale().layout() == layout);
    }

    /** A conversion or block that produces a floating format without NaN (OCP FP6, FP4): where a NaN must become a number. */
    static boolean finiteOnlyResults(SpecTables t) {
        return t.conversions().stream().anyMatch(c -> finiteOnly(c.to()))
                || t.blocks().values().stream().anyMatch(b -> finiteOnly(b.element()));
    }

    private static boolean finiteOnly(Format f) {
        return !f.isInteger() && !f.hasNan();
    }

    static boolean scaledBlocks(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.scaled());
    }

    /** A tensor whose scale layout has padding slots (tensors.csv). */
    static boolean paddedScales(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.extent() instanceof TensorShape s && s.scales() > s.blocks());
    }

    static boolean twoLevelTensors(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.isTensor() && b.twoLevel());
    }

    static boolean rotatedTensors(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.extent() instanceof TensorShape s && s.rotation() != null);
    }

    static boolean twoLevelBlocks(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.twoLevel());
    }
}
