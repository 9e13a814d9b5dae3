package convcert.suite.runner;

import convcert.reference.UsageException;
import convcert.suite.spi.CaseKey;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A golden-vector folder (vectors/): its manifest's cases, and their inputs and expected values. */
public final class VectorStore {

    private final Path folder;
    private final Manifest manifest;

    private VectorStore(Path folder, Manifest manifest) {
        this.folder = folder;
        this.manifest = manifest;
    }

    public static VectorStore open(Path folder) {
        try {
            Manifest m = Manifest.readIn(folder);
            if (m == null) {
                throw new UsageException("no vectors in " + folder + " (no " + Manifest.FILE + "); run ./convcert generate");
            }
            return new VectorStore(folder, m);
        } catch (IOException e) {
            throw new UsageException("cannot read " + folder.resolve(Manifest.FILE) + ": " + e.getMessage());
        }
    }

    /** SHA-256 of manifest.json: which golden set a report's expected values came from. */
    public String manifestDigest() {
        try {
            return convcert.vectors.Sha256.of(folder.resolve(Manifest.FILE));
        } catch (IOException e) {
            throw new UsageException("cannot read " + folder.resolve(Manifest.FILE) + ": " + e.getMessage());
        }
    }

    public Path folder() {
        return folder;
    }

    public List<Manifest.Entry> cases() {
        return manifest.cases();
    }

    /**
     * The ways to select a case's state: its manifest's variants, or (a vector set written before
     * variants) just the entry's form and CTRL bits. The first is the primary.
     */
    public static List<Manifest.Variant> variants(Manifest.Entry e) {
        return e.variants() == null || e.variants().isEmpty()
                ? List.of(new Manifest.Variant("", e.form(), e.ctrl())) : e.variants();
    }

    /** The key of one variant of a case; the primary (index 0) carries no variant label. */
    public static CaseKey key(Manifest.Entry e, int variant) {
        Manifest.Variant v = variants(e).get(variant);
        Map<Integer, Integer> ctrl = new TreeMap<>();
        v.ctrl().forEach((bit, value) -> ctrl.put(Integer.parseInt(bit), value));
        return new CaseKey(e.profile(), e.from(), e.to(), e.rounding(), e.state(), v.form(), ctrl,
                variant == 0 ? "" : v.label());
    }

    /** A case's inputs or expected values from its binary files. */
    public long[] read(Manifest.Entry e, boolean inputs, int width) {
        var ref = e.files().get(inputs ? ".in.bin" : ".expected.bin");
        if (ref == null) {
            throw new UsageException(e.name() + ": the vector set has no binary layout; generate it with --format bin");
        }
        try {
            return VectorFiles.elements(Files.readAllBytes(folder.resolve(ref.path())), width);
        } catch (IOException ex) {
            throw new UsageException("cannot read " + folder.resolve(ref.path()) + ": " + ex.getMessage());
        }
    }
}
