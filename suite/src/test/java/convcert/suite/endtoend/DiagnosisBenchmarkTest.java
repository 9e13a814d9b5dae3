package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import convcert.spec.CsvTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diagnosis benchmark (docs/diagnosis.md): bugs planted in devices written by hand (suite/devices/planted,
 * bugs.csv), each certified, its diagnosis read back and judged against the cause a person names. A diagnosis
 * names the cause right (a cause among those bugs.csv accepts, whether everywhere, within a scope, or as the
 * part named), names a wrong one, localizes (no cause, and its findings say where, as bugs.csv's pattern
 * expects), or is silent. The benchmark holds convcert to its promise: no wrong cause, nothing silent, at
 * least 90 % named right or localized. The table it writes (target/diagnosis-benchmark.md) is docs/diagnosis.md's.
 */
@Tag("slow")
class DiagnosisBenchmarkTest {

    enum Verdict { RIGHT, WRONG, LOCALIZED, SILENT, ESCAPED }

    record Bug(String id, String device, String bug, String profile, String only, List<String> expected, String where,
               String person) {
    }

    record Judged(Bug bug, Verdict verdict, String said) {
    }

    static final Path PLANTED = Fixtures.HOME.resolve("suite/devices/planted");

    /** Every planted device without its bug certifies: what the benchmark finds is the bug, not the device. */
    @Tag("extended") // the benchmark's devices themselves, checked with the whole benchmark
    @Test
    void everyPlantedDeviceWithoutItsBugPasses(@TempDir Path temp) throws Exception {
        String library = "native:lib=" + PlantedDevices.library("NONE");
        for (String[] device : new String[][] {{"cuda", "*", library}, {"riscv", "float->half/*", library},
            {"arm", "*", library}, {"ocp-mx", "*", "process:cmd=python3 " + PLANTED.resolve("mx_quantizer.py") + " --bug NONE"},
            {"cuda", "*", "process:cmd=python3 " + PLANTED.resolve("nvfp4_quantizer.py") + " --bug NONE"}}) {
            Fixtures.Run r = Fixtures.certify(temp.resolve(device[0] + device[2].length()), "--profile", device[0], "--vectors",
                    ciSet(device[0], temp).toString(), "--only", device[1], "--adapter", device[2]);
            assertEquals(0, r.exit(), device[0] + " " + device[2] + "\n" + r.out() + r.err());
        }
    }

    /** The bugs CI runs, one or two of each kind of case: the whole benchmark is the extended tier's (about 3 minutes). */
    static final List<String> CI = List.of("carry-into-nan-e4m3", "ties-away-subnormal-e4m3", "rz-as-rn-half",
            "flags-tininess-before", "scale-unsigned", "scale-clamped", "mx-elements-ties-away", "mx-ties-away-and-nan-ignored",
            "mx-scales-row-major", "nvfp4-elements-truncate", "rtl-sticky-ignored");

    @Test
    void aBugOfEachKindOfCaseIsNamedOrLocalized(@TempDir Path temp) throws Exception {
        benchmark(bugs().stream().filter(b -> CI.contains(b.id())).toList(), temp, "diagnosis-benchmark-ci.md");
    }

    @Tag("extended")
    @Test
    void noWrongCauseNothingSilentAndNineInTenNamedOrLocalized(@TempDir Path temp) throws Exception {
        benchmark(bugs(), temp, "diagnosis-benchmark.md");
    }

    private void benchmark(List<Bug> bugs, Path temp, String file) throws Exception {
        List<Judged> judged = new ArrayList<>();
        for (Bug bug : bugs) {
            if (!bug.device().equals("rtl") || ProveTest.yosys()) {
                judged.add(run(bug, temp));
            }
        }
        Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            counts.put(v, judged.stream().filter(j -> j.verdict() == v).count());
        }
        Path table = Fixtures.HOME.resolve("suite/target").resolve(file);
        Files.createDirectories(table.getParent());
        Files.writeString(table, table(judged, counts));
        String failures = judged.stream().filter(j -> j.verdict() != Verdict.RIGHT && j.verdict() != Verdict.LOCALIZED)
                .map(j -> j.bug().id() + " " + j.verdict() + ": " + j.said()).reduce("", (a, b) -> a + "\n" + b);
        assertEquals(0, counts.get(Verdict.WRONG) + counts.get(Verdict.SILENT) + counts.get(Verdict.ESCAPED), failures);
        assertTrue(counts.get(Verdict.RIGHT) + counts.get(Verdict.LOCALIZED) >= 0.9 * judged.size(), failures);
    }

    /** Certifies one planted bug (or proves its RTL) and judges what the diagnosis of its failing cases says. */
    private Judged run(Bug bug, Path temp) throws Exception {
        Path out = temp.resolve(bug.id());
        if (bug.device().equals("rtl")) {
            return judged(bug, prove(bug, out), out.resolve("report"));
        }
        String adapter = switch (bug.device()) {
            case "c" -> "native:lib=" + PlantedDevices.library(bug.bug());
            case "mx", "nvfp4" -> "process:cmd=python3 " + PLANTED.resolve(bug.device() + "_quantizer.py") + " --bug " + bug.bug();
            default -> throw new IllegalArgumentException(bug.device());
        };
        Fixtures.Run r = Fixtures.certify(out, "--profile", bug.profile(), "--vectors", ciSet(bug.profile(), temp).toString(),
                "--only", bug.only(), "--adapter", adapter);
        return judged(bug, r, out);
    }

    /**
     * convcert prove on the example RTL's float -> bfloat16 (suite/devices/rtl) with the bug's define; bugs.csv's
     * only column gives the rounding mode and its mode port's value ("rn 0").
     */
    private static Fixtures.Run prove(Bug bug, Path out) {
        String[] mode = bug.only().split(" ");
        Path rtl = Fixtures.HOME.resolve("suite/devices/rtl");
        return Fixtures.run("", "prove", "--from", "float", "--to", "bfloat16", "--rounding", mode[0], "--saturation", "nosat",
                "--ctrl", "60=0,48=1,50=0", "--top", "convert_unit", "--set", "dst=0", "--set", "mode=" + mode[1], "--set",
                "sat_suffix=0", "--set", "implicit=0", "--set", "ctrl60=0", "--set", "ctrl48=1", "--set", "ctrl50=0", "--define",
                bug.bug(), "--out", out.toString(), "--rtl", rtl.resolve("convert_unit.sv").toString(), "--rtl",
                rtl.resolve("float_to_bf16.sv").toString(), "--rtl", rtl.resolve("float_to_fp8.sv").toString());
    }

    /** A run's verdict on a bug: its report's failing cases judged, or what went wrong. */
    private static Judged judged(Bug bug, Fixtures.Run r, Path out) throws Exception {
        if (r.exit() != 1) {
            return new Judged(bug, r.exit() == 0 ? Verdict.ESCAPED : Verdict.SILENT, "exit " + r.exit() + ": " + r.err());
        }
        List<String> said = new ArrayList<>();
        Verdict verdict = Verdict.RIGHT;
        for (JsonNode c : Fixtures.report(out).get("cases")) {
            if (!c.get("status").asText().equals("FAIL")) {
                continue;
            }
            Verdict v = judge(bug, c.get("diagnosisData"));
            said.add(c.get("name").asText() + ": " + c.get("diagnosis").asText());
            verdict = worse(verdict, v);
        }
        return new Judged(bug, said.isEmpty() ? Verdict.SILENT : verdict, String.join(" | ", said));
    }

    /** The ci sets a test made (a test's own temporary folder holds them). */
    private final Map<String, Path> ciSets = new java.util.HashMap<>();

    /** A profile's ci set, generated once for every bug certified under it. */
    private Path ciSet(String profile, Path temp) {
        return ciSets.computeIfAbsent(profile, p -> {
            Path dir = temp.resolve("ci-" + p);
            assertEquals(0, Fixtures.run("", "generate", "--profile", p, "--level", "ci", "--format", "bin", "--out",
                    dir.toString()).exit());
            return dir;
        });
    }

    /** One failing case's diagnosis against the bug: the causes it names, or where its findings say. */
    static Verdict judge(Bug bug, JsonNode d) {
        if (d == null) {
            return Verdict.SILENT;
        }
        List<String> named = new ArrayList<>();
        d.get("faults").forEach(f -> named.add(f.get("fault").asText()));
        if (!named.isEmpty()) {
            return named.stream().anyMatch(bug.expected()::contains) ? Verdict.RIGHT : Verdict.WRONG;
        }
        StringBuilder findings = new StringBuilder();
        d.get("findings").forEach(f -> findings.append(f.get("text").asText()).append("; "));
        boolean located = findings.length() > 0 && (bug.where().isEmpty()
                || Pattern.compile(bug.where()).matcher(findings).find());
        return located ? Verdict.LOCALIZED : Verdict.SILENT;
    }

    private static Verdict worse(Verdict a, Verdict b) {
        List<Verdict> order = List.of(Verdict.RIGHT, Verdict.LOCALIZED, Verdict.SILENT, Verdict.WRONG);
        return order.indexOf(a) >= order.indexOf(b) ? a : b;
    }

    static List<Bug> bugs() {
        List<Bug> bugs = new ArrayList<>();
        for (CsvTable.Row row : CsvTable.read(PLANTED.resolve("bugs.csv"), List.of("id", "device", "bug", "profile", "only",
                "expected", "where", "person")).rows()) {
            String expected = row.required("expected");
            bugs.add(new Bug(row.required("id"), row.required("device"), row.required("bug"), row.required("profile"),
                    row.required("only"), expected.equals("-") ? List.of() : List.of(expected.split(" ")),
                    row.text("where"), row.required("person")));
        }
        return bugs;
    }

    private static String table(List<Judged> judged, Map<Verdict, Long> counts) {
        StringBuilder t = new StringBuilder("| bug | device | profile | cases | a person says | convcert says | verdict |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (Judged j : judged) {
            t.append("| ").append(j.bug().id()).append(" | ").append(j.bug().device()).append(" | ").append(j.bug().profile())
                    .append(" | `").append(j.bug().only()).append("` | ").append(j.bug().person()).append(" | ")
                    .append(j.said().replace("|", "\\|")).append(" | ").append(j.verdict().name().toLowerCase()).append(" |\n");
        }
        t.append("\n").append(judged.size()).append(" bugs: ");
        counts.forEach((v, n) -> t.append(n).append(" ").append(v.name().toLowerCase()).append(", "));
        return t.substring(0, t.length() - 2) + "\n";
    }
}
