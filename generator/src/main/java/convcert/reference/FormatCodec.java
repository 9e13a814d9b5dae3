package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import convcert.spec.TaperedRow;
import java.util.List;

/**
 * The arithmetic view of one format row: how its bits decode to sign * significand * 2^exponent and
 * how a rounded value encodes back. Every floating format is described the same way, as a grid:
 * for each binade E between {@link #minExponent()} and {@link #maxExponent()} the quantum (weight of
 * the last kept bit) and the bits that encode the binade. Binades below the smallest normal one keep
 * its quantum (subnormals). IEEE formats compute their grid from the field widths, tapered formats
 * read it from tapered.csv.
 */
public final class FormatCodec {

    private final Format format;
    private final Layout layout;
    private final int width;
    private final long mask;
    private final long signBit;
    // IEEE-style fields
    private final int mantissaBits;
    private final int exponentFieldMax;
    private final long mantissaMask;
    private final boolean nanAtNegativeZero;
    private final int bias;
    // the grid, indexed by E - minExponent
    private final int minExponent;
    private final int maxExponent;
    private final int[] quantum;
    private final int[] keptBits;
    private final long[] header;
    private final TaperedRow[] rows;
    private final long maxKept;
    // tapered decoding, indexed by code
    private final Decoded[] decodeTable;

    FormatCodec(Format format, SpecTables tables) {
        this.format = format;
        this.layout = format.layout();
        this.width = format.width();
        this.mask = format.mask();
        this.signBit = format.isInteger() || format.isSigned() ? 1L << (width - 1) : 0; // E8M0 has no sign
        this.mantissaBits = format.mantissaBits();
        this.exponentFieldMax = (1 << format.exponentBits()) - 1;
        this.mantissaMask = (1L << mantissaBits) - 1;
        // FNUZ (AMD FP8): the one NaN takes the code of -0, and the all-ones exponent holds numbers.
        this.nanAtNegativeZero = (layout == Layout.IEEE_FN || layout == Layout.P3109_SIGNED) && format.nan() != null
                && format.nan() == signBit;
        this.bias = format.bias();
        Span span = span(format, tables);
        minExponent = span.minExponent();
        int top = span.top();
        rows = span.rows();
        decodeTable = layout == Layout.TAPERED ? new Decoded[1 << width] : null;
        int n = top - minExponent + 1;
        quantum = new int[Math.max(n, 0)];
        keptBits = new int[Math.max(n, 0)];
        header = new long[Math.max(n, 0)];
        for (int i = 0; i < n; i++) {
            int e = minExponent + i;
            keptBits[i] = layout == Layout.FIXED ? e + mantissaBits : rows == null ? mantissaBits : rows[i].mantissaBits();
            quantum[i] = e - keptBits[i];
            header[i] = rows == null ? (long) (e + bias) << mantissaBits : taperedHeader(rows[i], e);
        }
        if (decodeTable != null) {
            for (int code = 0; code < decodeTable.length; code++) {
                decodeTable[code] = decodeTapered(code);
            }
        }
        if (layout.isInteger()) {
            maxExponent = 0;
            maxKept = 0;
        } else {
            Decoded max = decode(format.maxFinite());
            if (max.kind() != Decoded.Kind.FINITE || max.negative()) {
                throw new TableException(format.location(), "max_finite does not decode to a positive finite value");
            }
            maxExponent = max.binade();
            maxKept = shiftTo(max.significand(), max.exponent(), quantum(maxExponent));
        }
    }

    /** The binades minExponent..top a format's grid spans, and a tapered format's row for each. */
    private record Span(int minExponent, int top, TaperedRow[] rows) {
    }

    private static Span span(Format format, SpecTables tables) {
        int bias = format.bias();
        return switch (format.layout()) {
            case IEEE, IEEE_FN, IEEE_FNU, P3109_SIGNED, P3109_UNSIGNED ->
                    new Span(1 - bias, (int) (format.maxFinite() >>> format.mantissaBits()) - bias, null);
            case FIXED -> { // one quantum, 2^-fraction bits, in every binade up to the largest value's
                int top = 63 - Long.numberOfLeadingZeros(format.maxFinite()) - format.mantissaBits();
                yield new Span(top, top, null);
            }
            // code 0 is 2^-bias: every code below NaN is a normal power of two
            case EXPONENT -> new Span(-bias, (int) format.maxFinite() - bias, null);
            case TAPERED -> {
                List<TaperedRow> taperedRows = tables.taperedRows(format);
                int top = taperedRows.stream().filter(r -> !r.denormal()).mapToInt(TaperedRow::maxAbsExponent).max().orElse(0);
                int min = -taperedRows.stream().mapToInt(TaperedRow::maxAbsExponent).max().orElseThrow();
                TaperedRow[] rows = new TaperedRow[top - min + 1];
                for (int i = 0; i < rows.length; i++) {
                    int e = min + i;
                    rows[i] = taperedRows.stream().filter(r -> r.covers(e)).findFirst().orElseThrow();
                }
                yield new Span(min, top, rows);
            }
            default -> new Span(0, -1, null);
        };
    }

    /** Sign-less bits of binade e in a tapered row: the prefix, then the exponent field or the denormal field. */
    private long taperedHeader(TaperedRow row, int e) {
        long prefix = Long.parseLong(row.prefix(), 2) << (width - 1 - row.prefix().length());
        if (row.denormal()) {
            return prefix | (e + row.maxAbsExponent() + 1);
        }
        int d = row.exponentBits();
        if (d == 0) {
            return prefix;
        }
        long magnitude = Math.abs(e) & ((1L << (d - 1)) - 1);
        return prefix | (((e < 0 ? 1L : 0L) << (d - 1) | magnitude) << row.mantissaBits());
    }

    private static long shiftTo(long significand, int exponent, int targetExponent) {
        int shift = exponent - targetExponent;
        return shift >= 0 ? significand << shift : significand >>> -shift;
    }

    private Decoded decodeTapered(int code) {
        boolean negative = (code & signBit) != 0;
        if (code == format.nan()) {
            return new Decoded(Decoded.Kind.NAN, false, 0, 0, 1L << 63);
        }
        if (format.inf() != null && (code & ~signBit) == format.inf()) {
            return new Decoded(Decoded.Kind.INFINITE, negative, 0, 0, 0);
        }
        int body = (int) (code & ~signBit);
        for (int i = 0; i < header.length; i++) {
            TaperedRow row = rows[i];
            int prefixShift = width - 1 - row.prefix().length();
            if ((body >>> prefixShift) != Integer.parseInt(row.prefix(), 2)) {
                continue;
            }
            long fieldMask = (1L << prefixShift) - 1;
            if (row.denormal()) {
                long field = body & fieldMask;
                if (field == 0) {
                    return Decoded.zero(negative);
                }
                return Decoded.finite(negative, 1, (int) field - row.maxAbsExponent() - 1);
            }
            long headerMask = fieldMask & ~((1L << row.mantissaBits()) - 1);
            if ((body & headerMask) == (header[i] & headerMask)) {
                long mantissa = body & ((1L << row.mantissaBits()) - 1);
                int e = minExponent + i;
                return Decoded.finite(negative, (1L << row.mantissaBits()) | mantissa, e - row.mantissaBits());
            }
        }
        throw new TableException(format.location(), "code " + format.hex(code) + " decodes to no tapered.csv row");
    }

    public Format format() {
        return format;
    }

    public boolean isInteger() {
        return layout.isInteger();
    }

    public Layout layout() {
        return layout;
    }

    public long signBit() {
        return signBit;
    }

    public long mask() {
        return mask;
    }

    /** Smallest binade of the grid; smaller values share its quantum. */
    public int minExponent() {
        return minExponent;
    }

    /** Binade of the largest finite value. */
    public int maxExponent() {
        return maxExponent;
    }

    /** The largest finite value is maxKept * 2^quantum(maxExponent). */
    public long maxKept() {
        return maxKept;
    }

    /** Weight of the last kept bit in binade e (e <= maxExponent; smaller binades than the grid share its first). */
    public int quantum(int e) {
        return quantum[Math.max(e, minExponent) - minExponent];
    }

    /** The tapered.csv row of binade e (clamped to the grid). */
    public TaperedRow taperedRow(int e) {
        return rows[Math.max(e, minExponent) - minExponent];
    }

    public Decoded decode(long bits) {
        return unpack(bits, new Unpacked()).toDecoded();
    }

    /**
     * The position of a (non-NaN) pattern in the format's order of values, both zeros at 0: how many codes
     * apart two results are is the difference of their ranks. Sign-magnitude and integer layouts rank by
     * their bits; a tapered one by a table of its values in order.
     */
    public long rank(long bits) {
        bits &= mask;
        return switch (layout) {
            case IEEE, IEEE_FN, P3109_SIGNED -> (bits & signBit) != 0 ? -(bits & ~signBit) : bits;
            case EXPONENT, P3109_UNSIGNED, IEEE_FNU -> bits;
            case TAPERED -> ranks()[(int) bits];
            default -> format.isSigned() && (bits & signBit) != 0 ? bits - (mask + 1) : bits;
        };
    }

    private volatile long[] ranks;

    private long[] ranks() {
        long[] r = ranks;
        if (r == null) {
            r = TaperedRanks.of(this);
            ranks = r;
        }
        return r;
    }

    /** Decodes into the given scratch (no allocation); returns it. One small method per layout, so the JIT inlines it. */
    Unpacked unpack(long bits, Unpacked u) {
        return switch (layout) {
            case IEEE, IEEE_FN -> unpackIeee(bits & mask, u);
            case P3109_SIGNED, P3109_UNSIGNED, IEEE_FNU -> unpackOneNan(bits & mask, u);
            case EXPONENT -> (bits & mask) == exponentFieldMax ? u.set(Decoded.Kind.NAN, false, 0, 0, 1L << 63)
                    : u.set(Decoded.Kind.FINITE, false, 1, (int) (bits & mask) - bias, 0);
            case TAPERED -> u.set(decodeTable[(int) (bits & mask)]);
            case FIXED -> unpackSigned(bits << (64 - width) >> (64 - width), u).scaledBy(-mantissaBits);
            case INT -> unpackSigned(bits << (64 - width) >> (64 - width), u);
            case UINT -> unpackUnsigned(bits & mask, u);
        };
    }

    private Unpacked unpackIeee(long bits, Unpacked u) {
        boolean negative = (bits & signBit) != 0;
        int e = (int) (bits >>> mantissaBits) & exponentFieldMax;
        long m = bits & mantissaMask;
        if (e != 0 && e != exponentFieldMax) {
            return u.set(Decoded.Kind.FINITE, negative, m | (1L << mantissaBits), e - bias - mantissaBits, 0);
        }
        return unpackIeeeEdge(negative, e, m, u);
    }

    /** Zeros, subnormals, and the all-ones exponent (infinity and NaN, or finite values of ieee-fn). */
    private Unpacked unpackIeeeEdge(boolean negative, int e, long m, Unpacked u) {
        if (e == 0) {
            if (m == 0) {
                return negative && nanAtNegativeZero ? u.set(Decoded.Kind.NAN, false, 0, 0, 1L << 63) // unsigned: the only NaN
                        : u.set(Decoded.Kind.ZERO, negative, 0, 0, 0);
            }
            return u.set(Decoded.Kind.FINITE, negative, m, minExponent - mantissaBits, 0);
        }
        if (layout == Layout.IEEE) {
            return m == 0 ? u.set(Decoded.Kind.INFINITE, negative, 0, 0, 0)
                    : u.set(Decoded.Kind.NAN, negative, 0, 0, m << (64 - mantissaBits));
        }
        if (m == mantissaMask && format.nan() != null && !nanAtNegativeZero) { // finite-only and FNUZ: a number here
            return u.set(Decoded.Kind.NAN, negative, 0, 0, 1L << 63);
        }
        return u.set(Decoded.Kind.FINITE, negative, m | (1L << mantissaBits), e - bias - mantissaBits, 0);
    }

    /** P3109 and ieee-fnu: the one NaN, the extended domain's infinities, every other code a number (0 the one zero). */
    private Unpacked unpackOneNan(long bits, Unpacked u) {
        if (bits == format.nan()) {
            return u.set(Decoded.Kind.NAN, false, 0, 0, 1L << 63);
        }
        boolean negative = (bits & signBit) != 0;
        if (format.inf() != null && (bits & ~signBit) == format.inf()) {
            return u.set(Decoded.Kind.INFINITE, negative, 0, 0, 0);
        }
        int e = (int) (bits >>> mantissaBits) & exponentFieldMax;
        long m = bits & mantissaMask;
        if (e == 0) {
            return m == 0 ? u.set(Decoded.Kind.ZERO, false, 0, 0, 0)
                    : u.set(Decoded.Kind.FINITE, negative, m, minExponent - mantissaBits, 0);
        }
        return u.set(Decoded.Kind.FINITE, negative, m | (1L << mantissaBits), e - bias - mantissaBits, 0);
    }

    private static Unpacked unpackSigned(long value, Unpacked u) {
        return value == 0 ? u.set(Decoded.Kind.ZERO, false, 0, 0, 0)
                : u.set(Decoded.Kind.FINITE, value < 0, value < 0 ? -value : value, 0, 0);
    }

    private static Unpacked unpackUnsigned(long value, Unpacked u) {
        return value == 0 ? u.set(Decoded.Kind.ZERO, false, 0, 0, 0) : u.set(Decoded.Kind.FINITE, false, value, 0, 0);
    }

    /**
     * Encodes kept * 2^q, a value already rounded to this grid (kept > 0, at most one carry above the
     * binade's kept bits), with the given sign.
     */
    public long encode(boolean negative, long kept, int q) {
        if (layout == Layout.FIXED) { // the integer kept x 2^(q + fraction bits), two's complement
            long n = kept << (q + mantissaBits);
            return (negative ? -n : n) & mask;
        }
        int length = 64 - Long.numberOfLeadingZeros(kept);
        int e = q + length - 1;
        long sign = negative ? signBit : 0;
        if (e < minExponent) {
            return sign | kept; // subnormal: quantum of the smallest binade, no header
        }
        int index = e - minExponent;
        int m = keptBits[index];
        long mantissa = (length - 1 > m ? kept >>> (length - 1 - m) : kept << (m - (length - 1))) & ((1L << m) - 1);
        return sign | header[index] | mantissa;
    }

    public long zero(boolean negative) {
        return negative && format.negativeZero() ? signBit : 0;
    }

    public long largestFinite(boolean negative) {
        if (layout == Layout.FIXED) {
            return negative ? -format.maxFinite() & mask : format.maxFinite();
        }
        return (negative ? signBit : 0) | format.maxFinite();
    }

    public boolean hasInfinity() {
        return format.inf() != null;
    }

    /** Whether the format has the infinity of this sign (an unsigned format has no -infinity). */
    public boolean hasInfinity(boolean negative) {
        return format.inf() != null && (!negative || signBit != 0);
    }

    public boolean hasNan() {
        return format.nan() != null;
    }

    public long infinity(boolean negative) {
        return (negative ? signBit : 0) | format.inf();
    }

    /** The NaN this format produces for the given source NaN sign and payload. */
    public long nan(boolean negative, long payload, Semantics.NanEncoding encoding) {
        if (encoding == Semantics.NanEncoding.CANONICAL) {
            return format.nan();
        }
        return switch (layout) {
            case IEEE -> (negative ? signBit : 0) | format.inf() | (payload >>> (64 - mantissaBits))
                    | (1L << (mantissaBits - 1));
            case IEEE_FN -> nanAtNegativeZero ? format.nan() : (negative ? signBit : 0) | format.nan();
            default -> format.nan();
        };
    }

    /** Whether the format is FNUZ: its one NaN is the code of -0 (AMD's E4M3FNUZ, E5M2FNUZ). */
    public boolean fnuz() {
        return nanAtNegativeZero && layout == Layout.IEEE_FN;
    }

    /** The format's NaN (formats.csv nan) with the given sign, where the format has a sign outside its one NaN. */
    public long signedNan(boolean negative) {
        long nan = format.nan();
        return nanAtNegativeZero || !format.isSigned() ? nan : nan & ~signBit | (negative ? signBit : 0);
    }

    /** Integer formats: the smallest value's bits (0 for unsigned). */
    public long integerMin() {
        return format.isSigned() ? signBit : 0;
    }

    public long integerMax() {
        return format.maxFinite();
    }
}
