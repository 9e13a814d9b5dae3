package convcert.reference;

import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;

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

    static boolean scaledBlocks(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.scaled());
    }

    /** A tensor whose scale layout has padding slots (tensors.csv). */
    static boolean paddedScales(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.tensor() != null && b.tensor().scales() > b.tensor().blocks());
    }

    static boolean twoLevelTensors(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.tensor() != null && b.twoLevel());
    }

    static boolean twoLevelBlocks(SpecTables t) {
        return t.blocks().values().stream().anyMatch(b -> b.twoLevel());
    }
}
