package convcert.vectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import convcert.spi.CaseKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * vectors/manifest.json: what every vector file holds and how it was made. Paths are relative to
 * the manifest's folder. No timestamps: the same inputs give the same bytes.
 */
public record Manifest(String generator, int formatVersion, List<Entry> cases) {

    public static final String FILE = "manifest.json";
    public static final int FORMAT_VERSION = 1;

    /**
     * One case: a pair, a rounding mode and a saturation state, with the API form and CTRL bits
     * that select that state, and its files.
     *
     * @param state      nosat, sat, wrap or sat-keepnan (the effective behaviour)
     * @param form       the API form used: nosat (no suffix) or sat (the _sat suffix)
     * @param suffix     the API suffix, e.g. _rn_sat
     * @param ctrl       the CTRL bits the case sets
     * @param tables     SHA-256 of the profile's spec tables
     * @param decisions  the decision options in force
     * @param coverage   inputs per coverage tag
     * @param files      per layout suffix (.csv, .in.bin, ...): path and SHA-256
     * @param variants   every API form and CTRL setting that selects this state, the first being
     *                   form and ctrl above; the expected values hold for each (absent: just that one)
     * @param elements   a value conversion's element widths and its results' NaN rule (absent for blocks and memory)
     * @param semantics  what the case does, in words a bench author reads (absent for blocks and memory)
     */
    public record Entry(String name, String profile, String from, String to, String rounding, String state,
                        String saturation, String form, String suffix, Map<String, Integer> ctrl, String tables,
                        Map<String, String> decisions, String level, long seed, int count,
                        Map<String, Integer> coverage, Map<String, FileRef> files, List<Variant> variants,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Elements elements,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Words semantics) {

        /** What kind of case the entry is (its state word read once). */
        public CaseKind kind() {
            return CaseKind.of(state);
        }
    }

    /**
     * One way to select a case's saturation state: the API form (nosat, sat, implicit) and the CTRL
     * bits to set; label is "form bit=value,..." over the bits the pair consults, as case names show it.
     */
    public record Variant(String label, String form, Map<String, Integer> ctrl) {
    }

    public record FileRef(String path, String sha256) {
    }

    /** The input and the result of each vector. */
    public record Elements(Element in, Element out) {
    }

    /**
     * One side of a vector: its format, its width in bits, the bytes it takes in .bin files, and (for a
     * format with NaNs) the rule that tells them: a pattern r is a NaN iff (r &amp; mask) == equals and, where
     * nonzero is not 0x0, (r &amp; nonzero) != 0.
     */
    public record Element(String format, int bits, int bytes, @JsonInclude(JsonInclude.Include.NON_NULL) NanRule nan) {
    }

    /** A NaN rule in hex at the format's width. */
    public record NanRule(String mask, String equals, String nonzero) {
    }

    /**
     * A value conversion in words, from its tables and the reference's own results: the rounding (rounding.csv's
     * definition), what a NaN, the infinities and the source's largest finite value give, and how results
     * compare (bit for bit, or any NaN for a NaN under nan-comparison=any). An entry is absent where the source
     * has no such value.
     */
    public record Words(String rounding, @JsonInclude(JsonInclude.Include.NON_NULL) String nan,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String infinity, String largest, String compare) {
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public static Manifest read(Path file) throws IOException {
        return mapper().readValue(file.toFile(), Manifest.class);
    }

    /** Reads the manifest in a folder, or null when there is none. */
    public static Manifest readIn(Path folder) throws IOException {
        Path file = folder.resolve(FILE);
        return Files.isRegularFile(file) ? read(file) : null;
    }

    public void write(Path folder) throws IOException {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        byte[] json = mapper().writer(printer).writeValueAsBytes(this);
        Path temp = folder.resolve("." + FILE + ".partial");
        Files.write(temp, json);
        Files.write(temp, new byte[] {'\n'}, StandardOpenOption.APPEND);
        Files.move(temp, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
