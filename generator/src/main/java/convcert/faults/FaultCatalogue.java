package convcert.faults;

import convcert.spec.CsvTable;
import convcert.spec.Location;
import convcert.spec.Rounding;
import convcert.spec.TableException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** spec-tables/faults.csv, validated: known mechanisms and applicability words, unique ids. */
public final class FaultCatalogue {

    static final List<String> APPLIES = List.of("rn", "rd", "ru", "rz", "rna", "ro", "rh", "rs", "rsa", "rsb", "rsc", "sat", "nosat",
            "wrap", "propagate", "floating-to", "integer-to", "unsigned-to", "floating-from", "float-source", "narrowing", "ctrl",
            "scaled", "signed-scale", "flags", "block", "tensor", "*");

    private FaultCatalogue() {
    }

    public static List<Fault> load(Path file) {
        List<Fault> faults = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (CsvTable.Row row : CsvTable.read(file, List.of("id", "family", "mechanism", "parameter", "applies",
                "detectable", "description")).rows()) {
            String id = row.required("id");
            if (!ids.add(id)) {
                throw row.error("id", "duplicate fault '" + id + "'");
            }
            Mechanism mechanism = Mechanism.parse(row.required("mechanism"));
            if (mechanism == null) {
                throw row.error("mechanism", "unknown mechanism '" + row.text("mechanism") + "'; known: " + Mechanism.known());
            }
            List<String> applies = row.words("applies");
            Set<Rounding> modes = EnumSet.noneOf(Rounding.class);
            for (String word : applies) {
                if (!APPLIES.contains(word)) {
                    throw row.error("applies", "unknown word '" + word + "'; known: " + String.join(" ", APPLIES));
                }
                Rounding mode = Rounding.parse(word);
                if (mode == Rounding.RS) { // every stochastic mode: rs and P3109's rsa, rsb, rsc
                    Arrays.stream(Rounding.values()).filter(Rounding::stochastic).forEach(modes::add);
                } else if (mode != null) {
                    modes.add(mode);
                }
            }
            String detectable = row.required("detectable");
            if (!detectable.equals("yes") && !detectable.equals("no")) {
                throw row.error("detectable", "expected yes or no");
            }
            faults.add(new Fault(id, row.required("family"), mechanism, row.required("parameter"), applies,
                    Set.copyOf(modes), detectable.equals("yes"), row.required("description"), row.location()));
        }
        if (faults.isEmpty()) {
            throw new TableException(new Location(file, 0, 0), "no faults");
        }
        return faults;
    }
}
