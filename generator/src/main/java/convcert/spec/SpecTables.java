package convcert.spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A profile's spec tables (one folder of spec-tables/), loaded and validated. Any inconsistency is
 * a {@link TableException} naming file:line:column; nothing is silently defaulted.
 */
public final class SpecTables {

    /** The core tables, in load order; their bytes (with profile.csv's and the extensions') make up {@link #digest()}. */
    public static final List<String> FILES = List.of("formats.csv", "tapered.csv", "rounding.csv",
            "hybrid-rounding.csv", "saturation-groups.csv", "saturation.csv", "ctrl.csv", "conversions.csv",
            "decisions.csv", "examples.csv", "blocks.csv");

    /** What a profile holds: profile.csv lists each table with its part (core, or an extension). */
    public static final String PROFILE_FILE = "profile.csv";

    /** The extensions a profile may declare, with their tables (loaded by their own packages). */
    public static final Map<String, List<String>> EXTENSIONS = Map.of("opencl-memory", List.of("types.csv",
            "vector-widths.csv", "vector-functions.csv", "as-type-rules.csv", "as-type-examples.csv"));

    /** The CTRL bit that sat_nan=ctrl50 consults. */
    public static final int NAN_UNDER_SATURATION_BIT = 50;

    private final String profile;
    private final Path directory;
    private final Map<String, Format> formats = new LinkedHashMap<>();
    private final Map<String, Format> formatsByAnyName = new LinkedHashMap<>();
    private final List<TaperedRow> taperedRows = new ArrayList<>();
    private final Map<Rounding, String> castNames = new LinkedHashMap<>();
    private final Map<String, HybridRule> hybridRules = new LinkedHashMap<>();
    private final Map<String, String> groups = new LinkedHashMap<>();
    private final List<SaturationRule> saturationRules = new ArrayList<>();
    private final Map<Integer, CtrlBit> ctrlBits = new TreeMap<>();
    private final Map<String, Conversion> conversions = new LinkedHashMap<>();
    private final Map<String, Decision> decisions = new LinkedHashMap<>();
    private final Map<String, Example> examples = new LinkedHashMap<>();
    private final Map<String, BlockFormat> blocks;
    private final String digest;
    /** Declared tables: file -> part ("core" or an extension's name), in profile.csv order. */
    private final Map<String, String> declared = new LinkedHashMap<>();

    private SpecTables(Path directory) {
        this.directory = directory;
        this.profile = directory.getFileName().toString();
        loadProfile(read(PROFILE_FILE, "file", "part", "description"));
        loadFormats(read("formats.csv", "name", "aliases", "width", "layout", "exponent_bits", "mantissa_bits",
                "bias", "inf", "nan", "max_finite", "negative_zero", "sat_nan", "from_nan", "description"));
        loadTapered(readOptional("tapered.csv", "format", "prefix", "kind", "exponent_bits", "mantissa_bits",
                "min_abs_exponent", "max_abs_exponent", "hybrid"));
        loadRounding(read("rounding.csv", "mode", "suffix", "ieee_attribute", "definition", "source"));
        loadHybrid(readOptional("hybrid-rounding.csv", "source", "compare_bits", "threshold", "source_ref"));
        loadGroups(read("saturation-groups.csv", "group", "description", "source"));
        loadCtrl(readOptional("ctrl.csv", "bit", "name", "power_on", "applies_to", "meaning", "source"));
        loadSaturation(read("saturation.csv", "group", "form", "effective", "source")); // plus a ctrlNN column per bit it consults
        CsvTable conversionTable = read("conversions.csv", "from", "to", "modes", "forms", "group", "implicit", "api",
                "source");
        loadConversions(conversionTable);
        checkModesNamed(conversionTable);
        loadDecisions(read("decisions.csv", "id", "question", "options", "default", "reason", "source"));
        this.blocks = BlockTable.load(readOptional("blocks.csv", BlockTable.COLUMNS.toArray(String[]::new)),
                this::findFormat, castNames.keySet());
        loadExamples(read("examples.csv", "id", "table", "from", "to", "input", "rounding", "form", "ctrl",
                "expected", "status", "document_says", "note"));
        this.digest = computeDigest();
    }

    /** Loads and validates the profile in the given folder (e.g. spec-tables/ascend-c). */
    public static SpecTables load(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new TableException(new Location(directory, 0, 0), "no such spec-table folder");
        }
        return new SpecTables(directory);
    }

    private CsvTable read(String name, String... columns) {
        return CsvTable.read(directory.resolve(name), List.of(columns));
    }

    /** Core tables a profile may leave out when it has nothing to say. */
    public static final List<String> OPTIONAL_FILES = List.of("tapered.csv", "hybrid-rounding.csv", "ctrl.csv",
            "blocks.csv");

    /** A table profile.csv declares, or an empty one (an optional table the profile does not have). */
    private CsvTable readOptional(String name, String... columns) {
        Path file = directory.resolve(name);
        return declared.containsKey(name) ? CsvTable.read(file, List.of(columns)) : CsvTable.empty(file);
    }

    /**
     * profile.csv: every table the profile has, core or of an extension; the required core tables are
     * declared, every declared table exists, and no other table lies in the folder unread.
     */
    private void loadProfile(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            String file = row.required("file");
            String part = row.required("part");
            List<String> known = part.equals("core") ? FILES : EXTENSIONS.get(part);
            if (known == null) {
                throw row.error("part", "unknown part '" + part + "' (core, " + String.join(", ", EXTENSIONS.keySet()) + ")");
            }
            if (!known.contains(file)) {
                throw row.error("file", "'" + file + "' is not a table of part " + part + " (" + String.join(" ", known) + ")");
            }
            if (declared.putIfAbsent(file, part) != null) {
                throw row.error("file", file + " is declared twice");
            }
            if (!Files.isRegularFile(directory.resolve(file))) {
                throw row.error("file", file + " is declared but missing from " + directory);
            }
        }
        for (String file : FILES) {
            if (!OPTIONAL_FILES.contains(file) && !declared.containsKey(file)) {
                throw new TableException(new Location(directory.resolve(PROFILE_FILE), 0, 0), "the core table " + file
                        + " is not declared (a row 'file,part,description' with part core)");
            }
        }
        for (Map.Entry<String, List<String>> extension : EXTENSIONS.entrySet()) {
            long count = extension.getValue().stream().filter(declared::containsKey).count();
            if (count > 0 && count < extension.getValue().size()) {
                throw new TableException(new Location(directory.resolve(PROFILE_FILE), 0, 0), "extension "
                        + extension.getKey() + " needs all of " + extension.getValue() + "; declared: "
                        + extension.getValue().stream().filter(declared::containsKey).toList());
            }
        }
        try (var files = Files.list(directory)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".csv") && !name.equals(PROFILE_FILE) && !declared.containsKey(name)) {
                    throw new TableException(new Location(f, 0, 0), "not declared in " + PROFILE_FILE
                            + ": a table the profile would not read");
                }
            }
        } catch (IOException e) {
            throw new TableException(new Location(directory, 0, 0), "unreadable: " + e.getMessage());
        }
    }

    // ---- formats ------------------------------------------------------------------------------

    private void loadFormats(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            String name = row.required("name");
            Layout layout = Layout.parse(row.required("layout"));
            if (layout == null) {
                throw row.error("layout", "unknown layout '" + row.text("layout")
                        + "' (known: ieee ieee-fn exponent tapered int uint)");
            }
            int width = row.integer("width");
            if (width < 4 || width > 64 || (width > 8 && width != 16 && width != 32 && width != 64)) {
                throw row.error("width", "width must be 4 to 8, 16, 32 or 64, got " + width
                        + " (elements of up to 8 bits are stored one per byte)");
            }
            Format format;
            if (layout.isInteger()) {
                for (String column : List.of("exponent_bits", "mantissa_bits", "bias", "inf", "nan", "sat_nan")) {
                    if (!row.text(column).isEmpty()) {
                        throw row.error(column, "must be blank for an integer format");
                    }
                }
                long mask = width == 64 ? -1L : (1L << width) - 1;
                long expectedMax = layout == Layout.INT ? mask >>> 1 : mask;
                long max = row.hex("max_finite");
                if (max != expectedMax) {
                    throw row.error("max_finite", "an " + width + "-bit " + layout.tableName()
                            + " has largest value 0x" + Long.toHexString(expectedMax).toUpperCase());
                }
                long fromNan = row.hex("from_nan");
                if ((fromNan & ~mask) != 0) {
                    throw row.error("from_nan", "does not fit in " + width + " bits");
                }
                format = new Format(name, row.words("aliases"), width, layout, 0, 0, 0, null, null, max,
                        row.yesNo("negative_zero"), null, fromNan, row.text("description"), row.location());
            } else {
                int exponentBits = 0;
                int mantissaBits = 0;
                int bias = 0;
                if (layout == Layout.TAPERED) {
                    for (String column : List.of("exponent_bits", "mantissa_bits", "bias")) {
                        if (!row.text(column).isEmpty()) {
                            throw row.error(column, "must be blank for a tapered format (see tapered.csv)");
                        }
                    }
                } else {
                    exponentBits = row.integer("exponent_bits");
                    mantissaBits = row.integer("mantissa_bits");
                    bias = row.integer("bias");
                    int sign = layout == Layout.EXPONENT ? 0 : 1;
                    if (sign + exponentBits + mantissaBits != width) {
                        throw row.error("mantissa_bits", (sign == 1 ? "1 + " : "") + "exponent_bits + mantissa_bits = "
                                + (sign + exponentBits + mantissaBits) + ", not the width " + width);
                    }
                    if (layout == Layout.EXPONENT && mantissaBits != 0) {
                        throw row.error("mantissa_bits", "an exponent layout has no mantissa: 0");
                    }
                }
                Long inf = row.optionalHex("inf");
                if (layout == Layout.IEEE && inf == null) {
                    throw row.error("inf", "an ieee layout has an infinity");
                }
                if ((layout == Layout.IEEE_FN || layout == Layout.EXPONENT) && inf != null) {
                    throw row.error("inf", "an " + layout.tableName() + " layout has no infinity; leave blank");
                }
                long mask = width == 64 ? -1L : (1L << width) - 1;
                Long nan = row.optionalHex("nan");
                if (nan == null && layout != Layout.IEEE_FN) {
                    throw row.error("nan", "value required (only an ieee-fn layout may have no NaN: finite only)");
                }
                long max = row.hex("max_finite");
                for (String column : List.of("inf", "nan", "max_finite")) {
                    Long value = row.optionalHex(column);
                    if (value != null && (value & ~mask) != 0) {
                        throw row.error(column, "does not fit in " + width + " bits");
                    }
                }
                String satNan = nan == null ? row.text("sat_nan") : row.required("sat_nan");
                if (nan == null && !satNan.isEmpty()) {
                    throw row.error("sat_nan", "must be blank for a format without NaN (decision finite-nan decides)");
                }
                if (nan != null && !satNan.equals("zero") && !satNan.equals("ctrl50") && !satNan.equals("nan")) {
                    throw row.error("sat_nan", "expected zero, nan or ctrl50, got '" + satNan + "'");
                }
                if (!row.text("from_nan").isEmpty()) {
                    throw row.error("from_nan", "must be blank for a floating format");
                }
                format = new Format(name, row.words("aliases"), width, layout, exponentBits, mantissaBits, bias,
                        inf, nan, max, row.yesNo("negative_zero"), satNan, null, row.text("description"), row.location());
                if (layout == Layout.IEEE || layout == Layout.IEEE_FN) {
                    checkIeeeSpecials(row, format);
                }
                if (layout == Layout.EXPONENT) {
                    if (nan == null || nan != mask || max != mask - 1) {
                        throw row.error(nan == null || nan != mask ? "nan" : "max_finite", "an exponent layout's NaN is "
                                + "all ones (" + format.hex(mask) + ") and its largest value the code below ("
                                + format.hex(mask - 1) + ")");
                    }
                    if (format.negativeZero()) {
                        throw row.error("negative_zero", "an exponent layout has no zero: no");
                    }
                }
            }
            if (formats.containsKey(name)) {
                throw row.error("name", "duplicate format '" + name + "'");
            }
            formats.put(name, format);
            for (String any : concat(List.of(name), format.aliases())) {
                Format previous = formatsByAnyName.putIfAbsent(any, format);
                if (previous != null) {
                    throw row.error(any.equals(name) ? "name" : "aliases",
                            "'" + any + "' already names " + previous.name());
                }
            }
        }
    }

    private static void checkIeeeSpecials(CsvTable.Row row, Format f) {
        long expAllOnes = ((1L << f.exponentBits()) - 1) << f.mantissaBits();
        long mantissaMask = (1L << f.mantissaBits()) - 1;
        if (f.layout() == Layout.IEEE) {
            if (f.inf() != expAllOnes) {
                throw row.error("inf", "an ieee +infinity is the all-ones exponent with a zero mantissa: "
                        + f.hex(expAllOnes));
            }
            if ((f.nan() & expAllOnes) != expAllOnes || (f.nan() & mantissaMask) == 0
                    || (f.nan() >>> (f.width() - 1)) != 0) {
                throw row.error("nan", "not a positive NaN of this layout");
            }
            if (f.maxFinite() != expAllOnes - 1) {
                throw row.error("max_finite", "the largest finite ieee value is " + f.hex(expAllOnes - 1));
            }
        } else if (f.nan() == null) { // finite only (OCP FP6, FP4): every code is a number
            if (f.maxFinite() != (expAllOnes | mantissaMask)) {
                throw row.error("max_finite", "the largest value of a finite-only ieee-fn layout is all ones below "
                        + "the sign: " + f.hex(expAllOnes | mantissaMask));
            }
        } else {
            if (f.nan() != (expAllOnes | mantissaMask)) {
                throw row.error("nan", "the ieee-fn NaN is all ones below the sign: " + f.hex(expAllOnes | mantissaMask));
            }
            if (f.maxFinite() != (expAllOnes | mantissaMask) - 1) {
                throw row.error("max_finite", "the largest finite ieee-fn value is "
                        + f.hex((expAllOnes | mantissaMask) - 1));
            }
        }
    }

    private void loadTapered(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            Format format = format(row, "format");
            if (format.layout() != Layout.TAPERED) {
                throw row.error("format", format.name() + " is not a tapered format");
            }
            String prefix = row.required("prefix");
            if (!prefix.matches("[01]+")) {
                throw row.error("prefix", "expected binary digits, got '" + prefix + "'");
            }
            String kind = row.required("kind");
            if (!kind.equals("normal") && !kind.equals("denormal")) {
                throw row.error("kind", "expected normal or denormal, got '" + kind + "'");
            }
            String hybrid = row.required("hybrid");
            if (!hybrid.equals("nearest-away") && !hybrid.equals("compare")) {
                throw row.error("hybrid", "expected nearest-away or compare, got '" + hybrid + "'");
            }
            TaperedRow t = new TaperedRow(format.name(), prefix, kind.equals("denormal"), row.integer("exponent_bits"),
                    row.integer("mantissa_bits"), row.integer("min_abs_exponent"), row.integer("max_abs_exponent"),
                    hybrid, row.location());
            int fieldBits = format.width() - 1 - prefix.length();
            if (t.denormal()) {
                if (t.mantissaBits() != 0 || t.exponentBits() != 0) {
                    throw row.error("mantissa_bits", "a denormal row has no exponent or mantissa bits");
                }
                if (t.maxAbsExponent() - t.minAbsExponent() + 2 > (1 << fieldBits)) {
                    throw row.error("max_abs_exponent", "the " + fieldBits + "-bit denormal field cannot hold "
                            + "zero and " + (t.maxAbsExponent() - t.minAbsExponent() + 1) + " exponents");
                }
            } else {
                if (t.exponentBits() + t.mantissaBits() != fieldBits) {
                    throw row.error("mantissa_bits", "exponent_bits + mantissa_bits must be " + fieldBits
                            + " after the sign and the prefix");
                }
                int lo = t.exponentBits() == 0 ? 0 : 1 << (t.exponentBits() - 1);
                int hi = t.exponentBits() == 0 ? 0 : (1 << t.exponentBits()) - 1;
                if (t.minAbsExponent() != lo || t.maxAbsExponent() != hi) {
                    throw row.error("min_abs_exponent", "a " + t.exponentBits() + "-bit exponent field covers |E| "
                            + lo + ".." + hi);
                }
            }
            for (TaperedRow other : taperedRows) {
                if (other.format().equals(t.format())) {
                    if (other.prefix().startsWith(prefix) || prefix.startsWith(other.prefix())) {
                        throw row.error("prefix", "prefix " + prefix + " is not prefix-free against " + other.prefix()
                                + " (" + other.location() + ")");
                    }
                    for (int e = -t.maxAbsExponent(); e <= t.maxAbsExponent(); e++) {
                        if (t.covers(e) && other.covers(e)) {
                            throw row.error("min_abs_exponent", "exponent " + e + " is also covered by " + other.location());
                        }
                    }
                }
            }
            taperedRows.add(t);
        }
        for (Format format : formats.values()) {
            if (format.layout() == Layout.TAPERED) {
                List<TaperedRow> rows = taperedRows(format);
                if (rows.isEmpty()) {
                    throw new TableException(format.location(), "tapered format " + format.name()
                            + " has no rows in tapered.csv");
                }
                int lo = -rows.stream().mapToInt(TaperedRow::maxAbsExponent).max().orElseThrow();
                int hi = rows.stream().filter(r -> !r.denormal()).mapToInt(TaperedRow::maxAbsExponent).max().orElse(0);
                for (int e = lo; e <= hi; e++) {
                    final int exponent = e;
                    if (rows.stream().noneMatch(r -> r.covers(exponent))) {
                        throw new TableException(rows.getFirst().location(), "tapered.csv: no row of " + format.name()
                                + " covers exponent " + e + "; the binades must be contiguous");
                    }
                }
            }
        }
    }

    private void loadRounding(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            Rounding mode = rounding(row, "suffix");
            String cast = row.required("mode");
            if (castNames.put(mode, cast) != null) {
                throw row.error("suffix", "duplicate rounding suffix '" + mode.suffix() + "'");
            }
        }
    }

    /** Every rounding mode a conversion offers (or rounds its implicit form with) has its rounding.csv row. */
    private void checkModesNamed(CsvTable conversionTable) {
        for (Conversion c : conversions.values()) {
            List<Rounding> used = new ArrayList<>(c.modes());
            if (c.implicitRounding() != null) {
                used.add(c.implicitRounding());
            }
            for (Rounding mode : used) {
                if (!castNames.containsKey(mode)) {
                    throw new TableException(c.location(), c.pairName() + " offers " + mode.suffix()
                            + ", which rounding.csv has no row for");
                }
            }
        }
    }

    private void loadHybrid(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            Format source = format(row, "source");
            int bits = row.integer("compare_bits");
            if (bits < 1 || bits > 62) {
                throw row.error("compare_bits", "expected 1..62, got " + bits);
            }
            String threshold = row.required("threshold");
            if (!threshold.equals("low-bits") && !threshold.equals("lsb-then-one")) {
                throw row.error("threshold", "expected low-bits or lsb-then-one, got '" + threshold + "'");
            }
            if (threshold.equals("lsb-then-one") && bits != 2) {
                throw row.error("compare_bits", "lsb-then-one is a 2-bit threshold");
            }
            if (hybridRules.put(source.name(), new HybridRule(source.name(), bits, threshold, row.location())) != null) {
                throw row.error("source", "duplicate source " + source.name());
            }
        }
    }

    private void loadGroups(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            if (groups.put(row.required("group"), row.required("description")) != null) {
                throw row.error("group", "duplicate group '" + row.text("group") + "'");
            }
        }
    }

    private void loadCtrl(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            int bit = row.integer("bit");
            if (bit < 0 || bit > 63) {
                throw row.error("bit", "CTRL bits are 0..63");
            }
            int powerOn = bitValue(row, "power_on");
            CtrlBit ctrl = new CtrlBit(bit, row.required("name"), powerOn, row.text("applies_to"),
                    row.text("meaning"), row.location());
            if (ctrlBits.put(bit, ctrl) != null) {
                throw row.error("bit", "duplicate CTRL bit " + bit);
            }
        }
        for (Format f : formats.values()) {
            if ("ctrl50".equals(f.satNan()) && !ctrlBits.containsKey(NAN_UNDER_SATURATION_BIT)) {
                throw new TableException(new Location(table.file(), 0, 0), "no row for CTRL[50], which sat_nan=ctrl50 of "
                        + f.name() + " consults");
            }
        }
    }

    private void loadSaturation(CsvTable table) {
        List<String> names = table.columnNames();
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).matches("ctrl\\d+") && !ctrlBits.containsKey(Integer.parseInt(names.get(i).substring(4)))) {
                throw new TableException(new Location(table.file(), 1, i + 1), "column " + names.get(i)
                        + ": CTRL[" + names.get(i).substring(4) + "] has no row in ctrl.csv");
            }
        }
        for (CsvTable.Row row : table.rows()) {
            String group = row.required("group");
            if (!groups.containsKey(group)) {
                throw row.error("group", "unknown group '" + group + "' (saturation-groups.csv has " + groups.keySet() + ")");
            }
            String formText = row.required("form");
            Form form = formText.equals("*") ? null : Form.parse(formText);
            if (form == null && !formText.equals("*")) {
                throw row.error("form", "expected nosat, sat, implicit or *, got '" + formText + "'");
            }
            Saturation effective = Saturation.parse(row.required("effective"));
            if (effective == null) {
                throw row.error("effective", "expected nosat, sat or wrap, got '" + row.text("effective") + "'");
            }
            Map<Integer, Integer> pattern = new LinkedHashMap<>();
            for (String column : table.columnNames()) {
                if (column.matches("ctrl\\d+")) {
                    pattern.put(Integer.parseInt(column.substring(4)), ctrlPattern(row, column));
                }
            }
            saturationRules.add(new SaturationRule(group, pattern, form, effective, row.required("source"),
                    row.location()));
        }
        for (String group : groups.keySet()) {
            for (Form form : Form.values()) {
                for (CtrlState ctrl : allCtrlStates()) {
                    if (saturationRule(group, form, ctrl) == null) {
                        throw new TableException(new Location(table.file(), 0, 0), "no rule matches group " + group
                                + ", form " + form.tableName() + ", CTRL " + ctrl);
                    }
                }
            }
        }
    }

    private Integer ctrlPattern(CsvTable.Row row, String column) {
        String text = row.required(column);
        if (text.equals("*")) {
            return null;
        }
        int bit = Integer.parseInt(column.substring(4));
        if (!ctrlBits.containsKey(bit)) {
            throw row.error(column, "CTRL[" + bit + "] has no row in ctrl.csv");
        }
        return bitValue(row, column);
    }

    private static int bitValue(CsvTable.Row row, String column) {
        String text = row.required(column);
        return switch (text) {
            case "0" -> 0;
            case "1" -> 1;
            default -> throw row.error(column, "expected 0 or 1" + (column.startsWith("ctrl") ? " or *" : "")
                    + ", got '" + text + "'");
        };
    }

    private void loadConversions(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            Format from = format(row, "from");
            Format to = format(row, "to");
            Set<Rounding> modes = EnumSet.noneOf(Rounding.class);
            for (String word : row.words("modes")) {
                Rounding mode = Rounding.parse(word);
                if (mode == null) {
                    throw row.error("modes", "unknown rounding mode '" + word + "' (known: " + Rounding.known() + ")");
                }
                modes.add(mode);
            }
            if (modes.isEmpty()) {
                throw row.error("modes", "at least one rounding mode required");
            }
            Set<Form> forms = EnumSet.noneOf(Form.class);
            for (String word : row.words("forms")) {
                Form form = Form.parse(word);
                if (form == null || form == Form.IMPLICIT) {
                    throw row.error("forms", "expected nosat and/or sat, got '" + word + "'");
                }
                forms.add(form);
            }
            if (forms.isEmpty()) {
                throw row.error("forms", "at least one form required");
            }
            String group = row.required("group");
            if (!groups.containsKey(group)) {
                throw row.error("group", "unknown group '" + group + "' (saturation-groups.csv has " + groups.keySet() + ")");
            }
            Rounding implicit = row.text("implicit").isEmpty() ? null : rounding(row, "implicit");
            if (modes.contains(Rounding.RH)) {
                if (to.layout() != Layout.TAPERED) {
                    throw row.error("modes", "rh (hybrid) is defined only for tapered destinations");
                }
                if (!hybridRules.containsKey(from.name())) {
                    throw row.error("modes", "rh needs a hybrid-rounding.csv row for " + from.name());
                }
            }
            Conversion c = new Conversion(from, to, Set.copyOf(modes), Set.copyOf(forms), group, implicit,
                    row.required("api"), row.required("source"), row.location());
            if (conversions.putIfAbsent(key(from, to), c) != null) {
                throw row.error("to", "duplicate pair " + c.pairName());
            }
            List<Form> checked = new ArrayList<>(forms);
            if (implicit != null) {
                checked.add(Form.IMPLICIT);
            }
            for (Form form : checked) {
                for (CtrlState ctrl : allCtrlStates()) {
                    Saturation effective = saturationRule(group, form, ctrl).effective();
                    boolean ok = to.isInteger() ? effective != Saturation.NOSAT : effective != Saturation.WRAP;
                    if (!ok) {
                        throw row.error("group", "group " + group + " gives '" + effective.tableName()
                                + "' for " + form.tableName() + " at CTRL " + ctrl + ", meaningless for " + to.name());
                    }
                }
            }
        }
    }

    private void loadDecisions(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            String id = row.required("id");
            List<String> options = row.words("options");
            if (options.isEmpty()) {
                throw row.error("options", "at least one option required");
            }
            if (new LinkedHashSet<>(options).size() != options.size()) {
                throw row.error("options", "duplicate option");
            }
            String def = row.required("default");
            if (!options.contains(def)) {
                throw row.error("default", "'" + def + "' is not one of the options " + options);
            }
            Decision d = new Decision(id, row.required("question"), options, def, row.required("reason"),
                    row.required("source"), row.location());
            if (decisions.putIfAbsent(id, d) != null) {
                throw row.error("id", "duplicate decision '" + id + "'");
            }
        }
    }

    private void loadExamples(CsvTable table) {
        for (CsvTable.Row row : table.rows()) {
            String id = row.required("id");
            Format from = format(row, "from");
            Format to = format(row, "to");
            Conversion c = conversions.get(key(from, to));
            if (c == null) {
                throw row.error("to", "pair " + from.name() + "->" + to.name() + " is not in conversions.csv");
            }
            Rounding mode = rounding(row, "rounding");
            Form form = Form.parse(row.required("form"));
            if (form == null) {
                throw row.error("form", "expected nosat, sat or implicit, got '" + row.text("form") + "'");
            }
            if (form == Form.IMPLICIT ? c.implicitRounding() != mode : !c.modes().contains(mode) || !c.forms().contains(form)) {
                throw row.error("rounding", "pair " + c.pairName() + " does not offer " + mode.suffix() + " "
                        + form.tableName() + " (" + c.location() + ")");
            }
            Map<Integer, Integer> ctrl = new TreeMap<>();
            for (String setting : row.words("ctrl")) {
                String[] parts = setting.split("=", 2);
                try {
                    int bit = Integer.parseInt(parts[0]);
                    int value = Integer.parseInt(parts.length == 2 ? parts[1] : "");
                    if (!ctrlBits.containsKey(bit) || (value != 0 && value != 1)) {
                        throw new NumberFormatException();
                    }
                    ctrl.put(bit, value);
                } catch (NumberFormatException e) {
                    throw row.error("ctrl", "bad setting '" + setting + "': expected BIT=0|1 with BIT in " + ctrlBits.keySet());
                }
            }
            long input = row.hex("input");
            long expected = row.hex("expected");
            if ((input & ~from.mask()) != 0) {
                throw row.error("input", "does not fit in " + from.name());
            }
            if ((expected & ~to.mask()) != 0) {
                throw row.error("expected", "does not fit in " + to.name());
            }
            boolean erratum = switch (row.required("status")) {
                case "ok" -> false;
                case "erratum" -> true;
                default -> throw row.error("status", "expected ok or erratum, got '" + row.text("status") + "'");
            };
            if (erratum && row.text("note").isEmpty()) {
                throw row.error("note", "an erratum row names the decision that corrects it");
            }
            Example e = new Example(id, row.required("table"), c, input, mode, form, ctrl, expected, erratum,
                    row.required("document_says"), row.text("note"), row.location());
            if (examples.putIfAbsent(id, e) != null) {
                throw row.error("id", "duplicate example '" + id + "'");
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private Format format(CsvTable.Row row, String column) {
        String name = row.required(column);
        Format f = formats.get(name);
        if (f == null) {
            Format alias = formatsByAnyName.get(name);
            throw row.error(column, alias != null ? "write the format's name '" + alias.name() + "', not the alias '"
                    + name + "'" : "unknown type '" + name + "' (known: " + String.join(" ", formats.keySet()) + ")");
        }
        return f;
    }

    private static Rounding rounding(CsvTable.Row row, String column) {
        Rounding mode = Rounding.parse(row.required(column));
        if (mode == null) {
            throw row.error(column, "unknown rounding mode '" + row.text(column) + "' (known: " + Rounding.known() + ")");
        }
        return mode;
    }

    /** Every setting of ctrl.csv's bits (one empty state for a profile without a register). */
    private List<CtrlState> allCtrlStates() {
        List<Integer> bits = List.copyOf(ctrlBits.keySet());
        List<CtrlState> states = new ArrayList<>();
        for (int i = 0; i < 1 << bits.size(); i++) {
            Map<Integer, Integer> state = new TreeMap<>();
            for (int k = 0; k < bits.size(); k++) {
                state.put(bits.get(k), (i >> k) & 1);
            }
            states.add(new CtrlState(state));
        }
        return states;
    }

    private static String key(Format from, Format to) {
        return from.name() + "->" + to.name();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** SHA-256 over profile.csv and every table it declares, core tables in load order, then the extensions'. */
    private String computeDigest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            List<String> files = new ArrayList<>(List.of(PROFILE_FILE));
            FILES.stream().filter(declared::containsKey).forEach(files::add);
            declared.keySet().stream().filter(f -> !FILES.contains(f)).forEach(files::add);
            for (String name : files) {
                sha.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
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
        return formats.values();
    }

    /** A format by name or alias, or null. */
    public Format findFormat(String nameOrAlias) {
        return formatsByAnyName.get(nameOrAlias);
    }

    public List<TaperedRow> taperedRows(Format format) {
        return taperedRows.stream().filter(r -> r.format().equals(format.name())).toList();
    }

    /** The rounding modes of rounding.csv, the profile's own. */
    public java.util.Set<Rounding> roundingModes() {
        return java.util.Collections.unmodifiableSet(castNames.keySet());
    }

    public String castName(Rounding mode) {
        return castNames.get(mode);
    }

    public HybridRule hybridRule(Format source) {
        return hybridRules.get(source.name());
    }

    public Map<String, String> groups() {
        return groups;
    }

    public List<SaturationRule> saturationRules() {
        return saturationRules;
    }

    /** The first saturation rule matching, or null. */
    public SaturationRule saturationRule(String group, Form form, CtrlState ctrl) {
        for (SaturationRule rule : saturationRules) {
            if (rule.matches(group, form, ctrl)) {
                return rule;
            }
        }
        return null;
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
        return conversions.get(key(from, to));
    }

    public Map<String, Decision> decisions() {
        return decisions;
    }

    public Collection<Example> examples() {
        return examples.values();
    }

    /** The block-scaled formats of blocks.csv (OCP MX), by name; empty for most profiles. */
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
