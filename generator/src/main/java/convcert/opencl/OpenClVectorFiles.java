package convcert.opencl;

import convcert.reference.Reference;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.spi.CaseKind;
import convcert.spi.MemoryCase;
import convcert.vectors.ExtensionCases;
import convcert.vectors.Level;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFiles;
import convcert.vectors.VectorFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenCL memory functions and as_type as golden vectors: one CSV per case under
 * PROFILE/memory/. Images are not repeated: 'memory' names the fixed pattern (OpenClVectors.pattern)
 * or the table of all halves.
 */
public final class OpenClVectorFiles implements ExtensionCases {

    private final Reference reference;
    private final OpenClTables tables;

    private OpenClVectorFiles(Reference reference, OpenClTables tables) {
        this.reference = reference;
        this.tables = tables;
    }

    /** The extension of a profile that has the memory tables; none otherwise. */
    public static List<ExtensionCases> of(Reference reference) {
        OpenClTables tables = OpenClTables.attachedTo(reference.tables());
        return tables == null ? List.of() : List.of(new OpenClVectorFiles(reference, tables));
    }

    @Override
    public List<Manifest.Entry> write(Path out, Level level, long seed, Set<VectorFormat> formats)
            throws IOException {
        String profile = reference.tables().profile();
        OpenClVectors generator = new OpenClVectors(new OpenClReference(tables, reference), reference, level, seed);
        List<Manifest.Entry> result = new ArrayList<>();
        for (MemoryCase c : generator.cases()) {
            List<MemoryVector> list = generator.vectors(c);
            String name = new CaseId.Memory(profile, c).path();
            Files.createDirectories(VectorFiles.inside(out, out.resolve(name)).getParent());
            StringBuilder csv = new StringBuilder("pointer,offset,memory,data,expected,compared_bytes,outcome,coverage\n");
            Map<String, Integer> coverage = new LinkedHashMap<>();
            for (MemoryVector v : list) {
                String memory = v.memory() == null ? "-" : v.memory().length == OpenClVectors.IMAGE
                        ? "pattern-" + v.memory().length : "all-halves";
                csv.append(v.pointer()).append(',').append(v.offset()).append(',').append(memory).append(',')
                        .append(MemoryVector.hex(v.data())).append(',').append(v.expected() == null ? ""
                                : v.expectedHex(v.expected().length)).append(',')
                        .append(v.comparedBytes()).append(',').append(v.outcome().label()).append(',').append(v.coverage())
                        .append('\n');
                coverage.merge(v.coverage(), 1, Integer::sum);
            }
            String sha = VectorFiles.writeText(VectorFiles.inside(out, out.resolve(name + ".csv")), csv.toString());
            result.add(new Manifest.Entry(name, profile, MemoryCase.vectorType(c.type(), c.n()), c.functionName(), "-",
                    CaseKind.MEMORY.state(), CaseKey.NO_FORM, "-", c.functionName(), Map.of(), reference.tables().digest(),
                    reference.semantics().choices(), level.label(), seed, list.size(), coverage,
                    Map.of(".csv", new Manifest.FileRef(name + ".csv", sha)), List.of(), null, null));
        }
        return result;
    }
}
