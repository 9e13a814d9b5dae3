package convcert.families;

import convcert.opencl.OpenClVectorFiles;
import convcert.reference.Reference;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.ExtensionCases;
import java.util.ArrayList;
import java.util.List;

/**
 * The registration of the case families a profile can have beside its conversions, known here and nowhere
 * else: the OpenCL memory functions and the block-scaled formats. A new family registers here; the generator
 * and the suite get the list from this class.
 */
public final class Families {

    private Families() {
    }

    /** The reference's profile's extension cases (none for a profile without their tables). */
    public static List<ExtensionCases> of(Reference reference) {
        List<ExtensionCases> all = new ArrayList<>(OpenClVectorFiles.of(reference));
        all.addAll(BlockVectorFiles.of(reference));
        return all;
    }
}
