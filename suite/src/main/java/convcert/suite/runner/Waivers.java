package convcert.suite.runner;

import convcert.common.UsageException;
import convcert.common.WorkingDirectory;
import convcert.spec.CsvTable;
import convcert.spec.TableException;
import convcert.spi.CaseKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Known deviations a CI gate accepts until a date: a CSV with columns case, reason, expires.
 * 'case' is a state's name (float->half/rn-nosat: every variant of it), or one variant's
 * ("float->half/rn-sat [sat 60=1,48=0]"), where '*' matches anything; 'expires' is an ISO date.
 * A failing case with a live waiver is reported as waived; an expired waiver fails the case.
 */
public final class Waivers {

    public record Waiver(String pattern, String reason, LocalDate expires, String location) {

        /**
         * A pattern names states (float->half/rn-sat) and so covers each of their variants; one that names
         * a variant ("float->half/rn-sat [sat 60=1,48=0]") covers that variant alone.
         */
        boolean matches(CaseKey key) {
            return key.nameMatches(pattern) || (!pattern.contains(" [") && new CaseKey(key.profile(), key.from(), key.to(),
                    key.rounding(), key.state(), key.form(), key.ctrl()).nameMatches(pattern));
        }

        /** "board bug 1234 (waivers.csv:2, until 2027-01-31)" for reports. */
        public String describe() {
            return reason + " (" + location + ", until " + expires + ")";
        }
    }

    private final List<Waiver> waivers;

    private Waivers(List<Waiver> waivers) {
        this.waivers = waivers;
    }

    public static Waivers none() {
        return new Waivers(List.of());
    }

    public static Waivers read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("--waivers " + WorkingDirectory.relative(file) + ": no such file");
        }
        List<Waiver> list = new ArrayList<>();
        try {
            for (CsvTable.Row row : CsvTable.read(file, List.of("case", "reason", "expires")).rows()) {
                LocalDate expires;
                try {
                    expires = LocalDate.parse(row.required("expires"));
                } catch (DateTimeParseException e) {
                    throw row.error("expires", "expected an ISO date (2027-01-31), got '" + row.text("expires") + "'");
                }
                list.add(new Waiver(row.required("case"), row.required("reason"), expires, row.location().toString()));
            }
        } catch (TableException e) {
            throw new UsageException("waivers: " + e.getMessage());
        }
        return new Waivers(list);
    }

    /**
     * A waiver that matches no case of the profile is a typo that would silently waive nothing:
     * refused, naming its file:line.
     */
    public void checkAgainst(List<CaseKey> cases) {
        for (Waiver w : waivers) {
            if (cases.stream().noneMatch(w::matches)) {
                throw new UsageException("waivers: " + w.location() + ": case '" + w.pattern()
                        + "' matches no case of the profile (case names look like float->half/rn-nosat; '*' matches anything)");
            }
        }
    }

    public boolean isEmpty() {
        return waivers.isEmpty();
    }

    /** The first waiver matching the case, or null. */
    public Waiver find(CaseKey key) {
        return waivers.stream().filter(w -> w.matches(key)).findFirst().orElse(null);
    }
}
