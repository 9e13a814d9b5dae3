package convcert.reference;

import convcert.spec.Layout;
import convcert.spec.TaperedRow;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

/** How values are printed in messages, reports and vector files: hex, fields, decimal. */
public final class Values {

    private Values() {
    }

    /** The exact value sign * significand * 2^exponent (significand unsigned) as a BigDecimal. */
    public static BigDecimal exact(boolean negative, long significand, int exponent) {
        BigDecimal magnitude = new BigDecimal(new BigInteger(Long.toUnsignedString(significand)));
        BigDecimal value = exponent >= 0
                ? magnitude.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)))
                : magnitude.multiply(BigDecimal.valueOf(5).pow(-exponent)).scaleByPowerOfTen(exponent);
        return negative ? value.negate() : value;
    }

    /** An exact value, plainly written between 1e-7 and 1e21, in scientific notation outside. */
    public static String text(BigDecimal value) {
        BigDecimal v = value.stripTrailingZeros();
        BigDecimal abs = v.abs();
        boolean plain = v.signum() == 0 || (abs.compareTo(new BigDecimal("1e-7")) >= 0 && abs.compareTo(new BigDecimal("1e21")) < 0);
        return plain ? v.toPlainString() : v.toString();
    }

    /** Short decimal of a decoded value: integers exactly, floats as the double that equals them. */
    public static String decimal(FormatCodec codec, long bits) {
        Decoded d = codec.decode(bits);
        return switch (d.kind()) {
            case NAN -> "nan";
            case INFINITE -> d.negative() ? "-inf" : "inf";
            case ZERO -> codec.isInteger() ? "0" : (d.negative() ? "-0.0" : "0.0");
            case FINITE -> {
                if (codec.isInteger()) {
                    yield (d.negative() ? "-" : "") + Long.toUnsignedString(d.significand());
                }
                // Every value of the formats up to 32 bits is a double; double itself has <= 53 bits.
                double v = Math.scalb((double) d.significand(), d.exponent());
                yield Double.toString(d.negative() ? -v : v);
            }
        };
    }

    /** The fields of a bit pattern: sign.exponent.mantissa for IEEE layouts, the full pattern otherwise. */
    public static String fields(FormatCodec codec, long bits) {
        var f = codec.format();
        String binary = Long.toBinaryString(bits & f.mask());
        binary = "0".repeat(f.width() - binary.length()) + binary;
        if (f.layout() == Layout.IEEE || f.layout() == Layout.IEEE_FN) {
            return binary.charAt(0) + "." + binary.substring(1, 1 + f.exponentBits()) + "."
                    + binary.substring(1 + f.exponentBits());
        }
        if (f.layout() == Layout.TAPERED) {
            var row = taperedRowOf(codec, bits);
            return binary.charAt(0) + "." + (row == null ? binary.substring(1)
                    : row.prefix() + "." + binary.substring(1 + row.prefix().length()));
        }
        return binary;
    }

    private static TaperedRow taperedRowOf(FormatCodec codec, long bits) {
        Decoded d = codec.decode(bits);
        return d.kind() == Decoded.Kind.FINITE ? codec.taperedRow(d.binade()) : null;
    }

    /** "0x3C00 (1.0)", the form every failure message uses: {@link #hex} and {@link #reading}. */
    public static String describe(FormatCodec codec, long bits) {
        return hex(codec, bits) + " (" + reading(codec, bits) + ")";
    }

    /** The pattern in hex at the format's width, or all of it when it has bits beyond the width. */
    public static String hex(FormatCodec codec, long bits) {
        return inFormat(codec, bits) ? codec.format().hex(bits) : "0x" + Long.toHexString(bits).toUpperCase(Locale.ROOT);
    }

    /** What a pattern stands for: its decimal, or that it is no value of the format. */
    public static String reading(FormatCodec codec, long bits) {
        return inFormat(codec, bits) ? decimal(codec, bits)
                : "not a " + codec.format().width() + "-bit " + codec.format().name() + " value";
    }

    private static boolean inFormat(FormatCodec codec, long bits) {
        return (bits & ~codec.format().mask()) == 0;
    }
}
