package convcert.suite.runner;

import convcert.common.Sha256;
import convcert.common.UsageException;
import convcert.common.WorkingDirectory;
import convcert.reference.BlockConverter;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.Lane;
import convcert.spec.Rounding;
import convcert.spec.VectorBytes;
import convcert.spi.CaseId;
import convcert.spi.CaseKey;
import convcert.spi.CaseKind;
import convcert.spi.CtrlState;
import convcert.vectors.BlockLayout;
import convcert.vectors.BlockVectorFiles;
import convcert.vectors.Manifest;
import convcert.vectors.VectorFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A golden-vector folder (vectors/): its manifest's cases, and their inputs and expected values.
 * Nothing is used unverified: {@link #open} checks the manifest's structure and that every file it
 * lists lies inside the folder and exists; {@link #verify} checks the size and SHA-256 of the
 * binary files a run reads. Any fault is a usage error naming the file.
 */
public final class VectorStore {

    private final Path folder;
    private final Manifest manifest;

    private VectorStore(Path folder, Manifest manifest) {
        this.folder = folder;
        this.manifest = manifest;
    }

    public static VectorStore open(Path folder) {
        Path file = folder.resolve(Manifest.FILE);
        Manifest m;
        try {
            m = Manifest.readIn(folder);
        } catch (IOException e) {
            throw new UsageException(shown(file) + ": not a valid manifest: " + firstLine(e.getMessage()));
        }
        if (m == null) {
            throw new UsageException("no vectors in " + shown(folder) + " (no " + Manifest.FILE + "); run ./convcert generate");
        }
        if (m.cases() == null) {
            throw new UsageException(shown(file) + ": no 'cases'");
        }
        Set<String> names = new HashSet<>();
        for (Manifest.Entry e : m.cases()) {
            String where = shown(file) + ": case " + e.name();
            if (e.name() == null || e.files() == null || e.profile() == null || e.from() == null || e.to() == null
                    || e.rounding() == null || e.state() == null) {
                throw new UsageException(shown(file) + ": a case lacks name, profile, from, to, rounding, state or files");
            }
            if (!names.add(e.name())) {
                throw new UsageException(where + " is listed twice");
            }
            if (e.kind() != CaseKind.MEMORY && e.count() <= 0) {
                throw new UsageException(where + " has no vectors (count " + e.count() + ")");
            }
            for (Manifest.FileRef ref : e.files().values()) {
                inside(folder, ref.path(), where);
            }
        }
        return new VectorStore(folder, m);
    }

    /** A manifest path: relative, inside the folder (symbolic links resolved), an existing regular file. */
    private static Path inside(Path folder, String path, String where) {
        if (path == null || path.isBlank()) {
            throw new UsageException(where + ": a file without a path");
        }
        Path relative = Path.of(path);
        Path resolved = folder.resolve(relative).normalize();
        if (relative.isAbsolute() || !resolved.startsWith(folder.normalize())) {
            throw new UsageException(where + ": file '" + path + "' lies outside the vector folder");
        }
        if (!Files.isRegularFile(resolved)) {
            throw new UsageException(where + ": " + shown(resolved) + (Files.exists(resolved) ? " is not a file" : " is missing"));
        }
        try {
            if (!resolved.toRealPath().startsWith(folder.toRealPath())) {
                throw new UsageException(where + ": file '" + path + "' links outside the vector folder");
            }
        } catch (IOException e) {
            throw new UsageException(where + ": cannot read " + shown(resolved) + ": " + e.getMessage());
        }
        return resolved;
    }

    /**
     * Checks the binary files of the conversion cases a run will read: types known to the profile,
     * size = count x element width, SHA-256 as recorded. A halved, padded, emptied or edited file is
     * refused before any case runs.
     */
    public void verify(List<Manifest.Entry> entries, Reference reference,
                       Predicate<Manifest.Entry> readContents) {
        for (Manifest.Entry e : entries) {
            String where = shown(folder.resolve(Manifest.FILE)) + ": case " + e.name();
            switch (e.kind()) {
                case BLOCK, TENSOR -> verifyBlocks(e, reference, where, readContents.test(e));
                case CONVERSION -> verifyConversion(e, reference, where, readContents.test(e));
                case MEMORY -> { } // the reference makes their vectors when they run: no file to verify
            }
        }
    }

    /** A conversion case: its pair, rounding and variants known to the tables; read: its files' sizes and digests. */
    private void verifyConversion(Manifest.Entry e, Reference reference, String where, boolean read) {
        int[] widths = new int[2];
        try {
            widths[0] = reference.format(e.from()).width();
            widths[1] = reference.format(e.to()).width();
            reference.conversion(e.from(), e.to());
            Rounding.named(e.rounding());
            for (int i = 0; i < variants(e).size(); i++) {
                reference.resolve(key(e, i)); // its form offered, its CTRL bits those of ctrl.csv
            }
        } catch (UsageException x) {
            throw new UsageException(where + ": " + x.getMessage());
        }
        if (read) {
            fitsInMemory(e, where, (long) e.count() * (VectorBytes.of(widths[0]) + VectorBytes.of(widths[1]) + 3 * 8));
        }
        for (int i = 0; i < 2 && read; i++) {
            checkFile(e, i == 0 ? ".in.bin" : ".expected.bin", where, (long) e.count() * VectorBytes.of(widths[i]),
                    e.count() + " elements of " + widths[i] + " bits");
        }
        Rounding mode = Rounding.named(e.rounding());
        Lane lane = reference.conversion(e.from(), e.to()).lane(mode);
        if (lane != null && read) { // the random bits' or scales' lane
            int bits = reference.conversion(e.from(), e.to()).laneBits(mode);
            checkFile(e, VectorFiles.laneBin(lane), where, (long) e.count() * VectorBytes.of(bits), e.count()
                    + " " + lane + " values of " + bits + " bits");
        }
    }

    /**
     * A case is read whole (its inputs and expected values as longs beside the file's bytes): one too
     * large for the memory this JVM may use is refused before anything is allocated.
     */
    private static void fitsInMemory(Manifest.Entry e, String where, long bytes) {
        long available = Runtime.getRuntime().maxMemory() / 2;
        if (bytes > available) {
            throw new UsageException(where + ": " + e.count() + " vectors need about " + bytes / (1 << 20) + " MiB to read, "
                    + "more than half of the " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB this JVM may use "
                    + "(split the case, or give convcert more memory: JAVA_TOOL_OPTIONS=-Xmx...)");
        }
    }

    /** A block case: its block format and mode known, files of count whole blocks, SHA-256 as recorded. */
    private void verifyBlocks(Manifest.Entry e, Reference reference, String where, boolean contents) {
        BlockConverter c;
        try {
            c = BlockVectorFiles.converter(reference, e.from(), e.to(), e.rounding());
        } catch (UsageException x) {
            throw new UsageException(where + ": " + x.getMessage());
        }
        if (contents) {
            fitsInMemory(e, where, (long) e.count() * (BlockLayout.of(c, true).bytes() + BlockLayout.of(c, false).bytes()
                    + 8L * (c.inputsPerBlock() + 2 * c.outputsPerBlock())));
        }
        for (int i = 0; i < 2 && contents; i++) {
            int bytes = BlockLayout.of(c, i == 0).bytes();
            checkFile(e, i == 0 ? ".in.bin" : ".expected.bin", where, (long) e.count() * bytes, e.count() + " blocks of "
                    + bytes + " bytes");
        }
    }

    /** A case's .in.bin, .expected.bin or .random.bin: inside the folder, want bytes long (what says why), its SHA-256 as recorded. */
    private void checkFile(Manifest.Entry e, String suffix, String where, long want, String what) {
        Manifest.FileRef ref = e.files().get(suffix);
        if (ref == null) {
            throw new UsageException(where + ": the vector set has no binary layout (" + suffix
                    + "); generate it with --format bin");
        }
        Path file = inside(folder, ref.path(), where);
        if (ref.sha256() == null || ref.sha256().isBlank()) {
            throw new UsageException(where + ": " + ref.path() + " is listed without its sha256");
        }
        try {
            long size = Files.size(file);
            if (size != want) {
                throw new UsageException(shown(file) + ": " + size + " bytes; " + Manifest.FILE + " says " + what
                        + " (" + want + " bytes)");
            }
            if (!ref.sha256().equals(Sha256.of(file))) {
                throw new UsageException(shown(file) + ": SHA-256 differs from " + Manifest.FILE
                        + " (the file changed after it was generated)");
            }
        } catch (IOException x) {
            throw new UsageException("cannot read " + shown(file) + ": " + x.getMessage());
        }
    }

    /** A block case's inputs or expected values (verified by {@link #verify}). */
    public long[] readBlocks(Manifest.Entry e, boolean inputs, BlockConverter c) {
        var ref = e.files().get(inputs ? ".in.bin" : ".expected.bin");
        if (ref == null) {
            throw new UsageException(e.name() + ": the vector set has no binary layout; generate it with --format bin");
        }
        Path file = folder.resolve(ref.path());
        // the file's nibble order is the one it was generated under, whatever this run's decision
        boolean highFirst = Semantics.optionName(Semantics.NibbleOrder.HIGH_FIRST)
                .equals(e.decisions().get(Semantics.NIBBLE_ORDER.id()));
        BlockLayout layout = BlockLayout.of(c, inputs).withHighFirst(highFirst);
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length != (long) e.count() * layout.bytes()) {
                throw new UsageException(shown(file) + ": " + bytes.length + " bytes for " + e.count() + " blocks");
            }
            return layout.unpack(bytes);
        } catch (IOException ex) {
            throw new UsageException("cannot read " + shown(file) + ": " + ex.getMessage());
        }
    }

    private static String shown(Path p) {
        return WorkingDirectory.relative(p).toString();
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    /** SHA-256 of manifest.json: which golden set a report's expected values came from. */
    public String manifestDigest() {
        try {
            return Sha256.of(folder.resolve(Manifest.FILE));
        } catch (IOException e) {
            throw new UsageException("cannot read " + shown(folder.resolve(Manifest.FILE)) + ": " + e.getMessage());
        }
    }

    public Path folder() {
        return folder;
    }

    /** The profiles whose cases the folder holds, in order. */
    public List<String> profiles() {
        return manifest.cases().stream().map(Manifest.Entry::profile).distinct().sorted().toList();
    }

    /** Says which profiles the folder holds when it holds none of this one's cases; null when it does. */
    public String otherProfiles(String profile) {
        List<String> held = profiles();
        return held.contains(profile) ? null : shown(folder) + " holds vectors of " + (held.isEmpty() ? "no profile"
                : "profile " + String.join(", ", held)) + ", none of profile " + profile;
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
        CtrlState ctrl;
        try {
            ctrl = CtrlState.ofNames(v.ctrl());
        } catch (IllegalArgumentException bad) {
            throw new UsageException(Manifest.FILE + ": case " + e.name() + ": " + bad.getMessage());
        }
        return new CaseId.Conversion(e.profile(), e.from(), e.to(), e.rounding(), e.state(), v.form(), ctrl,
                variant == 0 ? "" : v.label()).key();
    }

    /**
     * A case's inputs as the reference's operands (verified by {@link #verify}): where the case has a lane
     * each value with its random bits or scale from .random.bin or .scale.bin.
     */
    public long[] readOperands(Manifest.Entry e, Converter converter) {
        long[] values = read(e, true, converter.source().format().width());
        if (converter.lane() != null) {
            long[] lane = read(e, VectorFiles.laneBin(converter.lane()), converter.operands().laneBits());
            for (int i = 0; i < values.length; i++) {
                values[i] = converter.operands().operand(values[i], lane[i]);
            }
        }
        return values;
    }

    /** A case's inputs or expected values from its binary files (verified by {@link #verify}). */
    public long[] read(Manifest.Entry e, boolean inputs, int width) {
        return read(e, inputs ? ".in.bin" : ".expected.bin", width);
    }

    private long[] read(Manifest.Entry e, String suffix, int width) {
        var ref = e.files().get(suffix);
        if (ref == null) {
            throw new UsageException(e.name() + ": the vector set has no binary layout; generate it with --format bin");
        }
        Path file = folder.resolve(ref.path());
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length != (long) e.count() * VectorBytes.of(width)) {
                throw new UsageException(shown(file) + ": " + bytes.length + " bytes for " + e.count() + " elements of "
                        + width + " bits");
            }
            return VectorFiles.elements(bytes, width);
        } catch (IOException ex) {
            throw new UsageException("cannot read " + shown(file) + ": " + ex.getMessage());
        }
    }
}
