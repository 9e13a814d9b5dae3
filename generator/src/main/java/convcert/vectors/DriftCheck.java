package convcert.vectors;

import convcert.spec.SpecTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Compares a freshly generated set with a committed one: which files differ and in how many rows.
 * A change in a spec table or in the reference shows up here as a diff of the golden set.
 */
public final class DriftCheck {

    private DriftCheck() {
    }

    /**
     * @param complete whether the fresh set covers everything (then committed cases it lacks are reported too)
     * @return one line per difference; empty when the sets agree
     */
    public static List<String> compare(SpecTables tables, Path committed, Path fresh, boolean complete) throws IOException {
        List<String> drift = new ArrayList<>();
        Manifest now = Manifest.readIn(fresh);
        Manifest before = Manifest.readIn(committed);
        if (before == null) {
            drift.add(committed.resolve(Manifest.FILE) + ": no committed manifest");
            return drift;
        }
        Map<String, Manifest.Entry> old = before.cases().stream()
                .collect(Collectors.toMap(Manifest.Entry::name, Function.identity()));
        for (Manifest.Entry e : now.cases()) {
            Manifest.Entry o = old.remove(e.name());
            if (o == null) {
                drift.add(e.name() + ": new case (" + e.count() + " vectors), not in the committed set");
                continue;
            }
            for (var file : e.files().entrySet()) {
                Path a = committed.resolve(file.getValue().path());
                Path b = fresh.resolve(file.getValue().path());
                if (!Files.isRegularFile(a)) {
                    drift.add(file.getValue().path() + ": missing from the committed set");
                } else if (Files.mismatch(a, b) != -1) {
                    drift.add(file.getValue().path() + ": " + rowDifference(tables, a, b, file.getKey(), e));
                }
            }
        }
        if (complete) {
            old.keySet().stream().sorted().forEach(name -> drift.add(name + ": committed but no longer generated"));
            if (drift.isEmpty() && Files.mismatch(committed.resolve(Manifest.FILE), fresh.resolve(Manifest.FILE)) != -1) {
                drift.add(Manifest.FILE + ": differs (generator version, tables digest or decisions)");
            }
        }
        return drift;
    }

    private static String rowDifference(SpecTables tables, Path committed, Path fresh, String suffix, Manifest.Entry e)
            throws IOException {
        List<String> a;
        List<String> b;
        if (suffix.endsWith(".bin")) {
            int bytes = tables.findFormat(suffix.startsWith(".in") ? e.from() : e.to()).bytes();
            a = elements(Files.readAllBytes(committed), bytes);
            b = elements(Files.readAllBytes(fresh), bytes);
        } else {
            a = Files.readAllLines(committed);
            b = Files.readAllLines(fresh);
            if (suffix.equals(".csv") && !a.isEmpty() && !b.isEmpty()) {
                a = a.subList(1, a.size());
                b = b.subList(1, b.size());
            }
        }
        int differing = Math.abs(a.size() - b.size());
        String first = null;
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                differing++;
                if (first == null) {
                    first = "first at row " + (i + 1) + ": committed '" + a.get(i) + "', now '" + b.get(i) + "'";
                }
            }
        }
        return differing + " of " + a.size() + " rows differ" + (a.size() != b.size() ? " (now " + b.size() + " rows)" : "")
                + (first == null ? "" : "; " + first);
    }

    private static List<String> elements(byte[] data, int bytes) {
        List<String> list = new ArrayList<>();
        for (int i = 0; i + bytes <= data.length; i += bytes) {
            list.add(Arrays.toString(Arrays.copyOfRange(data, i, i + bytes)));
        }
        return list;
    }
}
