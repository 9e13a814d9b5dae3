package convcert.families;

import convcert.reference.BlockConverter;
import convcert.reference.Case;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.spi.MemoryCase;
import convcert.vectors.BlockVectorFiles;
import java.util.ArrayList;
import java.util.List;

/**
 * The one listing of a profile's cases as the SPI's keys, and the one way each family's case becomes a key:
 * the planner and the replay adapter both take their case names from here.
 */
public final class CaseKeys {

    private CaseKeys() {
    }

    /** Every conversion case the profile defines, whatever the selection: capabilities and waivers must name one. */
    public static List<CaseKey> ofProfile(Reference reference) {
        List<CaseKey> keys = new ArrayList<>();
        for (Conversion c : reference.tables().conversions()) {
            for (Rounding mode : c.modes()) {
                for (List<Case> variants : reference.saturationVariants(c, mode).values()) {
                    for (int i = 0; i < variants.size(); i++) {
                        keys.add(of(reference, variants.get(i), i == 0 ? "" : reference.names().variantLabel(variants.get(i))));
                    }
                }
            }
        }
        for (BlockConverter c : BlockVectorFiles.cases(reference)) {
            keys.add(ofBlock(reference.tables().profile(), c));
        }
        return keys;
    }

    /** A conversion case's key; variant: "" for a state's first variant, else its label. */
    public static CaseKey of(Reference reference, Case c, String variant) {
        return reference.names().id(c, variant).key();
    }

    /** A block case's key: the pair FROM->TO, the state "block". */
    public static CaseKey ofBlock(String profile, BlockConverter c) {
        return c.id(profile).key();
    }

    /** An OpenCL memory case's key: the type, the function, the width, the state "memory". */
    public static CaseKey ofMemory(String profile, MemoryCase c) {
        return new CaseId.Memory(profile, c).key();
    }
}
