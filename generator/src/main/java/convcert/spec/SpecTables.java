package convcert.spec;

import convcert.spi.CtrlState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A profile's spec tables (one folder of spec-tables/), each loaded and validated by its own loader
 * (ProfileTable, FormatTable, ... ExampleTable). Any inconsistency is
 * a {@link TableException} naming file:line:column; nothing is silently defaulted.
 */
public final class SpecTables {

    /** The core tables, in load order; their bytes (with profile.csv's and the extensions') make up {@link #digest()}. */
    public static final List<String> FILES = List.of("formats.csv", "families.csv", "tapered.csv", "rounding.csv",
            "hybrid-rounding.csv", "saturation-groups.csv", "saturation.csv", "ctrl.csv", "conversions.csv",
            "decisions.csv", "examples.csv", "blocks.csv", "tensors.csv", "flags.csv", "document.csv");

    /** What a profile holds: profile.csv lists each table with its part (core, or an extension). */
    public static final String PROFILE_FILE = "profile.csv";

    /** The extensions a profile may declare, with their tables (loaded by their own packages). */
    public static final Map<String, List<String>> EXTENSIONS = Map.of("opencl-memory", List.of("types.csv",
            "vector-widths.csv", "vector-functions.csv", "as-type-rules.csv", "as-type-examples.csv"));

    private final String profile;
    private final Path directory;
    private final Map<String, String> declared;
    private final FormatTable formats;
    private final List<TaperedRow> taperedRows;
    private final Map<Rounding, String> castNames;
    private final Map<Rounding, String> roundingDefinitions;
    private final Map<String, HybridRule> hybridRules;
    private final Map<String, String> groups;
    private final Map<Integer, CtrlBit> ctrlBits;
    private final List<SaturationRule> saturationRules;
    private final Map<String, Conversion> conversions;
    private final Map<String, Decision> decisions;
    private final Map<String, BlockFormat> blocks;
    private final Map<String, String> flags;
    private final Map<String, Example> examples;
    private final List<DocumentTable.Document> documents;
    private final String digest;

    /** Each table by its own loader (XxxTable), in dependency order. */
    private SpecTables(Path directory) {
        this.directory = directory;
        this.profile = directory.getFileName().toString();
        this.declared = ProfileTable.load(read(PROFILE_FILE, "file", "part", "description"), directory);
        this.formats = new FormatTable(read("formats.csv", "name", "aliases", "width", "layout", "exponent_bits",
                "mantissa_bits", "bias", "inf", "nan", "max_finite", "negative_zero", "sat_nan", "from_nan",
                "description"));
        formats.families = FamilyTable.load(readOptional("families.csv", FamilyTable.COLUMNS.toArray(String[]::new)), formats);
        this.taperedRows = TaperedTable.load(readOptional("tapered.csv", "format", "prefix", "kind", "exponent_bits",
                "mantissa_bits", "min_abs_exponent", "max_abs_exponent", "hybrid"), formats);
        CsvTable rounding = read("rounding.csv", "mode", "suffix", "ieee_attribute", "definition", "source");
        this.castNames = RoundingTable.load(rounding);
        this.roundingDefinitions = RoundingTable.definitions(rounding);
        this.hybridRules = HybridTable.load(readOptional("hybrid-rounding.csv", "source", "compare_bits", "threshold",
                "source_ref"), formats);
        this.groups = SaturationTable.groups(read("saturation-groups.csv", "group", "description", "source"));
        this.ctrlBits = CtrlTable.load(readOptional("ctrl.csv", "bit", "name", "power_on", "tried_first", "applies_to",
                "meaning", "source"), formats.byName.values());
        this.saturationRules = SaturationTable.load(read("saturation.csv", "group", "form", "effective", "source"),
                groups, ctrlBits); // plus a ctrlNN column per bit it consults
        this.conversions = ConversionTable.load(read("conversions.csv", "from", "to", "modes", "forms", "group",
                "implicit", "api", "source"), formats, groups, hybridRules, saturationRules, ctrlBits.keySet(),
                castNames.keySet());
        this.decisions = DecisionTable.load(read("decisions.csv", "id", "question", "options", "default", "reason",
                "source"));
        this.blocks = TensorTable.load(readOptional("tensors.csv", TensorTable.COLUMNS.toArray(String[]::new)),
                BlockTable.load(readOptional("blocks.csv", BlockTable.COLUMNS.toArray(String[]::new)), this::findFormat,
                        castNames.keySet()), this::findFormat);
        this.flags = FlagTable.load(readOptional("flags.csv", "flag", "name", "source"));
        this.examples = ExampleTable.load(read("examples.csv", "id", "table", "from", "to", "input", "rounding", "form",
                "ctrl", "expected", "status", "document_says", "note"), formats, conversions, ctrlBits);
        this.documents = DocumentTable.load(readOptional("document.csv", "document", "version", "sections", "where", "status",
                "note"));
        this.digest = computeDigest();
    }

    /** Loads and validates the profile in the given folder (e.g. spec-tables/ascend-c). */
    public static SpecTables load(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new TableException(new Location(directory, 0, 0), "no such spec-table folder");
        }
        if (!Files.isRegularFile(directory.resolve("profile.csv"))) {
            throw new TableException(new Location(directory, 0, 0), "this folder holds no profile's tables (no profile.csv); "
                    + "a profile is a folder like spec-tables/ascend-c");
        }
        return new SpecTables(directory);
    }

    private CsvTable read(String name, String... columns) {
        return CsvTable.read(directory.resolve(name), List.of(columns));
    }

    /** Core tables a profile may leave out when it has nothing to say. */
    public static final List<String> OPTIONAL_FILES = List.of("document.csv", "families.csv", "tapered.csv", "hybrid-rounding.csv",
            "ctrl.csv", "blocks.csv", "tensors.csv", "flags.csv");

    /** A table profile.csv declares, or an empty one (an optional table the profile does not have). */
    private CsvTable readOptional(String name, String... columns) {
        Path file = directory.resolve(name);
        return declared.containsKey(name) ? CsvTable.read(file, List.of(columns)) : CsvTable.empty(file);
    }

    /** SHA-256 over profile.csv and every table it declares, core tables in load order, then the extensions'. */
    private String computeDigest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            List<String> files = new ArrayList<>(List.of(PROFILE_FILE));
            FILES.stream().filter(declared::containsKey).forEach(files::add);
            declared.keySet().stream().filter(f -> !FILES.contains(f)).forEach(files::add);
            for (String name : files) {
                sha.update(name.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(Files.readAllBytes(directory.resolve(name)));
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- queries ------------------------------------------------------------------------------

    public String profile() {
        return profile;
    }

    /** flags.csv: the exception flags the hardware raises (SoftFloat name -> its own), empty without the table. */
    public Map<String, String> flags() {
        return flags;
    }

    /**
     * "DRAFT: profile p3109 restates IEEE P3109 ..., a draft: ..." where document.csv marks one of the
     * profile's documents a draft (every report under it carries the line first); null otherwise.
     */
    public String draftNotice() {
        return DocumentTable.draftNotice(profile, documents);
    }

    /** Each document of document.csv as a report cites it: title, version, sections and where to get it. */
    public List<String> documents() {
        return documents.stream().map(DocumentTable.Document::cited).toList();
    }

    /** Whether the profile's conversions have a flags lane (it has flags.csv). */
    public boolean hasFlags() {
        return !flags.isEmpty();
    }

    public Path directory() {
        return directory;
    }

    /** Whether profile.csv declares the extension (e.g. opencl-memory). */
    public boolean hasExtension(String part) {
        return declared.containsValue(part);
    }

    /** SHA-256 over the profile's declared tables: golden vectors record it. */
    public String digest() {
        return digest;
    }

    public Collection<Format> formats() {
        return formats.byName.values();
    }

    /** A format by name or alias, or null. */
    public Format findFormat(String nameOrAlias) {
        return formats.byAnyName.get(nameOrAlias);
    }

    public List<TaperedRow> taperedRows(Format format) {
        return taperedRows.stream().filter(r -> r.format().equals(format.name())).toList();
    }

    /** The rounding modes of rounding.csv, the profile's own. */
    public Set<Rounding> roundingModes() {
        return Collections.unmodifiableSet(castNames.keySet());
    }

    public String castName(Rounding mode) {
        return castNames.get(mode);
    }

    /** What rounding.csv says the mode does (its definition column). */
    public String roundingDefinition(Rounding mode) {
        return roundingDefinitions.get(mode);
    }

    public HybridRule hybridRule(Format source) {
        return hybridRules.get(source.name());
    }

    public Map<String, String> groups() {
        return groups;
    }

    /** The CTRL bits that decide a pair's saturation: those its group's rows name, and its destination's sat_nan=ctrlNN bit. */
    public List<Integer> consultedBits(Conversion c) {
        TreeSet<Integer> bits = new TreeSet<>(Comparator.reverseOrder());
        for (SaturationRule rule : saturationRules()) {
            if (rule.group().equals(c.group())) {
                bits.addAll(rule.consultedBits());
            }
        }
        if (c.to().satNanBit() != null) {
            bits.add(c.to().satNanBit());
        }
        bits.retainAll(ctrlBits().keySet());
        return List.copyOf(bits);
    }

    public List<SaturationRule> saturationRules() {
        return saturationRules;
    }

    /** The first saturation rule matching, or null. */
    public SaturationRule saturationRule(String group, Form form, CtrlState ctrl) {
        return SaturationTable.find(saturationRules, group, form, ctrl);
    }

    public Map<Integer, CtrlBit> ctrlBits() {
        return ctrlBits;
    }

    /** CTRL at its documented power-on values. */
    public CtrlState powerOnCtrl() {
        Map<Integer, Integer> bits = new TreeMap<>();
        ctrlBits.forEach((bit, row) -> bits.put(bit, row.powerOn()));
        return new CtrlState(bits);
    }

    public Collection<Conversion> conversions() {
        return conversions.values();
    }

    public Conversion conversion(Format from, Format to) {
        return conversions.get(ConversionTable.key(from, to));
    }

    public Map<String, Decision> decisions() {
        return decisions;
    }

    public Collection<Example> examples() {
        return examples.values();
    }

    /** The block-scaled formats of blocks.csv (OCP MX), then the tensors of tensors.csv, by name; empty for most profiles. */
    public Map<String, BlockFormat> blocks() {
        return blocks;
    }

    /** A block format by name or alias, or null. */
    public BlockFormat findBlock(String nameOrAlias) {
        for (BlockFormat b : blocks.values()) {
            if (b.name().equals(nameOrAlias) || b.aliases().contains(nameOrAlias)) {
                return b;
            }
        }
        return null;
    }
}
