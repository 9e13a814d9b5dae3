package convcert.suite.diagnosis;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Values;
import convcert.spec.Layout;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Regions of a source's input space in words: a set of cells (Cells) as value bands ("2^-10 <= |x| < 2^-6",
 * both signs alike), each band grown over neighbouring cells that the caller does not exclude, so that the
 * scope of a cause reads as the region a person would name, not as the cells a vector set happened to hit.
 * Sign-magnitude sources are walked per sign in the order of magnitudes; infinities and NaNs are a region of
 * their own.
 */
final class Regions {

    private final Cells cells;
    private final FormatCodec src;
    private final boolean signMagnitude;

    Regions(Cells cells, FormatCodec src) {
        this.cells = cells;
        this.src = src;
        Layout l = src.layout();
        this.signMagnitude = !src.isInteger() && src.signBit() != 0
                && (l == Layout.IEEE || l == Layout.IEEE_FN || l == Layout.P3109_SIGNED);
    }

    /**
     * The words for the cells marked in, each band grown over cells marked neither in nor out; null when in is
     * empty. A band never crosses a cell marked out. grown, when not null, gets the cells the bands cover.
     */
    String words(boolean[] in, boolean[] out, boolean[] grown) {
        List<String> positive = new ArrayList<>();
        List<String> negative = new ArrayList<>();
        List<String> special = new ArrayList<>();
        int n = cells.count();
        int half = signMagnitude ? n / 2 : n;
        for (int start = 0; start < n; start += half) {
            List<String> into = !signMagnitude ? positive : start == 0 ? positive : negative;
            int from = -1;
            boolean hit = false;
            for (int c = start; c <= start + half; c++) {
                boolean end = c == start + half || out[c] || special(c);
                if (end) {
                    if (hit) {
                        into.add(band(from, c));
                        for (int k = from; grown != null && k < c; k++) {
                            grown[k] = true;
                        }
                    }
                    from = -1;
                    hit = false;
                    if (c < start + half && special(c) && in[c]) {
                        special.add(describe(c));
                        if (grown != null) {
                            grown[c] = true;
                        }
                    }
                    continue;
                }
                from = from < 0 ? c : from;
                hit |= in[c];
            }
        }
        List<String> parts = new ArrayList<>();
        if (signMagnitude && positive.equals(negative)) {
            positive.forEach(b -> parts.add(signed(b, "|x|")));
        } else {
            positive.forEach(b -> parts.add(signMagnitude ? signed(b, "+") : b));
            negative.forEach(b -> parts.add(signed(b, "-")));
        }
        special.stream().distinct().forEach(parts::add);
        return parts.isEmpty() ? null : String.join(" or ", parts);
    }

    /**
     * A band of magnitudes ("lo hi", either "-" where the band reaches zero or the largest finite value) in words for
     * the positive values (+), the negative ones (-) or both (|x|).
     */
    private static String signed(String band, String sign) {
        String[] b = band.split(" ");
        String lo = b[0];
        String hi = b[1];
        return switch (sign) {
            case "|x|" -> lo.equals("-") && hi.equals("-") ? "every finite x" : lo.equals("-") ? "|x| < " + hi
                    : hi.equals("-") ? "|x| >= " + lo : lo + " <= |x| < " + hi;
            case "+" -> lo.equals("-") && hi.equals("-") ? "every finite x >= 0" : lo.equals("-") ? "0 <= x < " + hi
                    : hi.equals("-") ? "x >= " + lo : lo + " <= x < " + hi;
            default -> lo.equals("-") && hi.equals("-") ? "every finite x <= -0" : lo.equals("-") ? "-" + hi + " < x <= -0"
                    : hi.equals("-") ? "x <= -" + lo : "-" + hi + " < x <= -" + lo;
        };
    }

    /** Whether a cell holds infinities or NaNs (an all-ones exponent field of an IEEE layout). */
    private boolean special(int c) {
        Decoded.Kind k = src.decode(cells.first(c) & src.mask()).kind();
        return signMagnitude && (k == Decoded.Kind.INFINITE || k == Decoded.Kind.NAN);
    }

    private String describe(int c) {
        return src.decode(cells.first(c)).kind() == Decoded.Kind.NAN ? "NaN inputs" : "infinite and NaN inputs";
    }

    /**
     * Cells [from, to) as one band: of values "a <= x <= b" (two's complement, unsigned), or of magnitudes "lo hi"
     * (sign-magnitude; "-" where it reaches zero, or the largest finite value), which signed() words.
     */
    private String band(int from, int to) {
        long first = cells.first(from);
        long last = cells.first(to - 1) + cells.size() - 1;
        if (!signMagnitude) { // two's complement or unsigned: the band's first and last values
            return show(first) + " <= x <= " + show(last);
        }
        int half = cells.count() / 2;
        boolean bottom = from % half == 0; // from zero up
        boolean top = to % half == 0 || special(to); // up to the largest finite magnitude
        return (bottom ? "-" : show(first & ~src.signBit())) + " " + (top ? "-" : show(cells.first(to) & ~src.signBit()));
    }

    /** A finite pattern's value as text (Regions.text), a long one as the shortest decimal of its float or double. */
    String show(long bits) {
        BigDecimal v = value(bits);
        if (v == null) {
            return src.format().hex(bits & src.mask());
        }
        String t = text(v);
        // a long exact value as the shortest decimal that reads back as the same float or double
        return t != null ? t : src.format().width() <= 32 ? Float.toString(v.floatValue()) : Double.toString(v.doubleValue());
    }

    /** A finite pattern's value (its magnitude for a negative sign-magnitude one); null for infinity or NaN. */
    BigDecimal value(long bits) {
        Decoded d = src.decode(bits & src.mask());
        return switch (d.kind()) {
            case ZERO -> BigDecimal.ZERO;
            case FINITE -> Values.exact(d.negative(), d.significand(), d.exponent());
            default -> null;
        };
    }

    /**
     * A value as a person reads it: powers of two as 2^k beyond a few digits, others plainly; null for a value of
     * more than 12 significant digits, which the caller shows otherwise (as its bits).
     */
    static String text(BigDecimal v) {
        BigDecimal abs = v.abs();
        if (abs.signum() > 0) {
            double d = abs.doubleValue();
            int e = Math.getExponent(d);
            boolean power = d != 0 && !Double.isInfinite(d) && new BigDecimal(Math.scalb(1.0, e)).compareTo(abs) == 0;
            if (power && (e >= 10 || e <= -3)) {
                return (v.signum() < 0 ? "-" : "") + "2^" + e;
            }
        }
        return v.stripTrailingZeros().precision() <= 12 ? Values.text(v) : null;
    }
}
