package convcert.spec;

import java.util.ArrayList;
import java.util.List;

/** tapered.csv: the binades of tapered formats (HiFloat8), prefix-free and contiguous. */
final class TaperedTable {

    private TaperedTable() {
    }

    static List<TaperedRow> load(CsvTable table, FormatTable formats) {
        List<TaperedRow> taperedRows = new ArrayList<>();
        for (CsvTable.Row row : table.rows()) {
            Format format = formats.format(row, "format");
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
            checkFields(row, t, format.width() - 1 - prefix.length());
            checkAgainst(row, t, taperedRows);
            taperedRows.add(t);
        }
        checkContiguous(formats, taperedRows);
        return taperedRows;
    }

    /** A row's fields after the sign and prefix: a denormal row's exponents, a normal row's exponent field. */
    private static void checkFields(CsvTable.Row row, TaperedRow t, int fieldBits) {
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
    }

    /** Rows of one format: prefix-free, and no exponent covered twice. */
    private static void checkAgainst(CsvTable.Row row, TaperedRow t, List<TaperedRow> earlier) {
        for (TaperedRow other : earlier) {
            if (other.format().equals(t.format())) {
                if (other.prefix().startsWith(t.prefix()) || t.prefix().startsWith(other.prefix())) {
                    throw row.error("prefix", "prefix " + t.prefix() + " is not prefix-free against " + other.prefix()
                            + " (" + other.location() + ")");
                }
                for (int e = -t.maxAbsExponent(); e <= t.maxAbsExponent(); e++) {
                    if (t.covers(e) && other.covers(e)) {
                        throw row.error("min_abs_exponent", "exponent " + e + " is also covered by " + other.location());
                    }
                }
            }
        }
    }

    /** Every tapered format has rows, and its binades leave no exponent out. */
    private static void checkContiguous(FormatTable formats, List<TaperedRow> taperedRows) {
    for (Format format : formats.byName.values()) {
        if (format.layout() == Layout.TAPERED) {
            List<TaperedRow> rows = taperedRows.stream().filter(r -> r.format().equals(format.name())).toList();
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
}
