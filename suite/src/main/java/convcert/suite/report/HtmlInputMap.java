package convcert.suite.report;

import convcert.suite.model.InputMap;
import java.util.Locale;
import java.util.Map;

/**
 * The picture of an exhaustive case's input map: one column per exponent field (binade), one row per
 * sign and leading fraction bits, a cell's red darker the more of its inputs differ (log scale from one
 * mismatch, the lightest, to the fullest cell's count, the darkest: a defect confined to a few binades
 * stands out, one spread evenly shows as an even wash). Inline SVG, scaled down on narrow screens.
 */
final class HtmlInputMap {

    private static final int ROW = 10;
    private static final int LEFT = 44;
    private static final int TOP = 6;

    private HtmlInputMap() {
    }

    static void render(StringBuilder h, InputMap map) {
        int columns = 1 << map.exponentBits();
        int rows = 1 << map.fractionBits();
        int cell = Math.max(3, Math.min(24, 768 / columns));
        int gridHeight = (2 * rows + 1) * ROW;
        int width = LEFT + columns * cell + 44; // room for the last column's label
        int height = TOP + gridHeight + 30;
        long most = map.cells().values().stream().mapToLong(Long::longValue).max().orElse(1);
        h.append(String.format(Locale.ROOT, "<p>Where in the input space the %,d mismatches lie (all of them): a column"
                        + " per binade of the input (exponent field), a row per sign and leading %d fraction bits, each"
                        + " cell %,d inputs; the darker, the more of them differ (log scale, the darkest %,d).</p>\n",
                map.total(), map.fractionBits(), map.cellSize(), most));
        h.append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" width=\"").append(width).append("\" style=\"max-width:100%;height:auto\" role=\"img\" ")
                .append("aria-label=\"mismatches by exponent and leading fraction bits\">");
        for (int sign = 0; sign < 2; sign++) {
            h.append("<rect x=\"").append(LEFT).append("\" y=\"").append(y(sign, 0, rows)).append("\" width=\"")
                    .append(columns * cell).append("\" height=\"").append(rows * ROW).append("\" fill=\"#f1f1f1\"/>");
            for (int lead = 0; lead < rows; lead++) {
                String bits = map.fractionBits() == 0 ? "" : "." + Integer.toBinaryString(lead | 1 << map.fractionBits()).substring(1);
                h.append("<text x=\"2\" y=\"").append(y(sign, lead, rows) + ROW - 1).append("\" font-size=\"9\">")
                        .append(sign == 0 ? "+" : "&#8722;").append(bits).append("</text>");
            }
        }
        for (Map.Entry<String, Long> c : map.cells().entrySet()) {
            String key = c.getKey();
            int sign = key.charAt(0) == '-' ? 1 : 0;
            int dot = key.indexOf('.');
            int field = Integer.parseInt(key.substring(1, dot), 16);
            int lead = dot + 1 == key.length() ? 0 : Integer.parseInt(key.substring(dot + 1), 2);
            double opacity = most == 1 ? 1 : 0.2 + 0.8 * Math.log(c.getValue()) / Math.log(most);
            h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#c62828\" "
                            + "fill-opacity=\"%.2f\"><title>%s: %,d of %,d inputs differ</title></rect>", LEFT + field * cell,
                    y(sign, lead, rows), cell, ROW, opacity, Markup.escape(describe(map, sign, field, key.substring(dot)), true),
                    c.getValue(), map.cellSize()));
        }
        // Binade labels under the grid, at least 56 px apart, always the first and the last exponent field.
        int every = Math.max(1, (56 + cell - 1) / cell);
        int labelY = TOP + gridHeight + 12;
        for (int field = 0; field < columns; field++) {
            boolean last = field == columns - 1;
            if ((field % every == 0 && columns - 1 - field >= every) || last) {
                h.append("<text x=\"").append(LEFT + field * cell).append("\" y=\"").append(labelY)
                        .append("\" font-size=\"9\">").append(Markup.escape(binade(map, field), true)).append("</text>");
            }
        }
        h.append("<text x=\"").append(LEFT).append("\" y=\"").append(labelY + 14).append("\" font-size=\"9\" fill=\"#555\">")
                .append("input binade (exponent field)</text></svg>\n");
    }

    private static int y(int sign, int lead, int rows) {
        return TOP + (sign * (rows + 1) + lead) * ROW;
    }

    private static String binade(InputMap map, int field) {
        return field == 0 ? "sub" : special(map, field) ? "inf/NaN" : "2^" + (field - map.bias());
    }

    private static boolean special(InputMap map, int field) {
        return map.topFieldSpecial() && field == (1 << map.exponentBits()) - 1;
    }

    private static String describe(InputMap map, int sign, int field, String bits) {
        String what = field == 0 ? "zero and subnormals" : special(map, field) ? "infinity and NaN"
                : "binade 2^" + (field - map.bias());
        return (sign == 0 ? "+" : "-") + " exponent field 0x" + Integer.toHexString(field) + " (" + what + "), fraction "
                + bits + "...";
    }
}
