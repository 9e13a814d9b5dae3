package convcert.vectors;

import convcert.spec.Labels;
import java.util.List;
import java.util.Locale;

/**
 * The file layouts of a vector set (vectors/README.md shows how to read each):
 * CSV with a header; raw little-endian binary, one stream of inputs and one of expected values;
 * Verilog $readmemh text, likewise two files.
 */
public enum VectorFormat {
    CSV(List.of(".csv")),
    BIN(List.of(".in.bin", ".expected.bin")),
    MEMH(List.of(".in.memh", ".expected.memh"));

    private final List<String> suffixes;

    VectorFormat(List<String> suffixes) {
        this.suffixes = suffixes;
    }

    public List<String> suffixes() {
        return suffixes;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static VectorFormat parse(String name) {
        return Labels.find(values(), VectorFormat::label, name);
    }
}
