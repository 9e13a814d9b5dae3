package convcert.oracle;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Decodes bit patterns from first principles, with the parameters of the research notes
 * (formats.md 1.2-1.3, 3.1, 4, 5.2) written here by hand, not read from formats.csv: an oracle for
 * the reference's table-driven decoding and for the table itself.
 */
public final class IndependentDecoder {

    private IndependentDecoder() {
    }

    public static int width(String format) {
        return switch (format) {
            case "fp4_e2m1" -> 4;
            case "fp6_e2m3", "fp6_e3m2" -> 6;
            case "ue4m3" -> 7;
            case "hifloat8", "fp8_e4m3fn", "fp8_e5m2", "ue5m3", "int8", "uint8", "fp8_e4m3", "fp8_e3m4", "fp8_e4m3fnuz",
                 "fp8_e5m2fnuz", "fp8_e4m3b11fnuz", "e8m0" -> 8;
            case "half", "bfloat16", "int16", "uint16" -> 16;
            case "float", "int32", "uint32" -> 32;
            case "double", "int64", "uint64" -> 64;
            default -> throw new IllegalArgumentException(format);
        };
    }

    public static boolean isInteger(String format) {
        return format.startsWith("int") || format.startsWith("uint");
    }

    public static Value decode(String format, long bits) {
        return switch (format) {
            case "float" -> ieee(bits, 8, 23, 127, true);
            case "double" -> ieee(bits, 11, 52, 1023, true);
            case "half" -> ieee(bits, 5, 10, 15, true);
            case "bfloat16" -> ieee(bits, 8, 7, 127, true);
            case "fp8_e5m2" -> ieee(bits, 5, 2, 15, true);
            case "fp8_e4m3fn" -> ieee(bits, 4, 3, 7, false);
            case "hifloat8" -> hifloat8((int) bits & 0xFF);
            case "ue5m3" -> unsignedM3((int) bits & 0xFF, 5, 15);
            case "ue4m3" -> unsignedM3((int) bits & 0x7F, 4, 7);
            case "fp4_e2m1" -> e2m1((int) bits & 0xF);
            // LLVM APFloat's small semantics (LangRef llvm.convert.*.arbitrary.fp): IEEE-style E4M3 and E3M4 with
            // infinities; FNUZ: bias 2^(e-1) (B11: 11), 0x80 the one NaN, every other code a number
            case "fp8_e4m3" -> ieee(bits, 4, 3, 7, true);
            case "fp8_e3m4" -> ieee(bits, 3, 4, 3, true);
            case "fp8_e4m3fnuz" -> fnuz(bits, 4, 3, 8);
            case "fp8_e5m2fnuz" -> fnuz(bits, 5, 2, 16);
            case "fp8_e4m3b11fnuz" -> fnuz(bits, 4, 3, 11);
            case "fp6_e2m3" -> finiteOnly(bits, 2, 3, 1);
            case "fp6_e3m2" -> finiteOnly(bits, 3, 2, 3);
            case "e8m0" -> (bits & 0xFF) == 0xFF ? new Value(Value.Kind.NAN, false, BigDecimal.ZERO)
                    : Value.finite(false, pow2(BigInteger.ONE, (int) (bits & 0xFF) - 127));
            default -> integer(format, bits);
        };
    }

    private static Value integer(String format, long bits) {
        int w = width(format);
        BigInteger value = new BigInteger(Long.toUnsignedString(bits));
        if (w < 64) {
            value = value.and(BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE));
        }
        if (format.startsWith("int") && value.testBit(w - 1)) {
            value = value.subtract(BigInteger.ONE.shiftLeft(w));
        }
        return Value.finite(value.signum() < 0, new BigDecimal(value.abs()));
    }

    /** hasInf: IEEE interchange; otherwise the OCP E4M3 rule (only S.1111.111 is NaN). */
    private static Value ieee(long bits, int e, int m, int bias, boolean hasInf) {
        boolean negative = ((bits >>> (e + m)) & 1) != 0;
        long exponent = (bits >>> m) & ((1L << e) - 1);
        long mantissa = bits & ((1L << m) - 1);
        long allOnes = (1L << e) - 1;
        if (hasInf && exponent == allOnes) {
            return new Value(mantissa == 0 ? Value.Kind.INFINITE : Value.Kind.NAN, negative, BigDecimal.ZERO);
        }
        if (!hasInf && exponent == allOnes && mantissa == (1L << m) - 1) {
            return new Value(Value.Kind.NAN, negative, BigDecimal.ZERO);
        }
        BigInteger significand = BigInteger.valueOf(exponent == 0 ? mantissa : mantissa | (1L << m));
        int scale = (int) (exponent == 0 ? 1 - bias : exponent - bias) - m;
        return Value.finite(negative, pow2(significand, scale));
    }

    /** Sign, exponent and mantissa with subnormals, every code a number (OCP FP6: no infinity, no NaN). */
    private static Value finiteOnly(long bits, int e, int m, int bias) {
        boolean negative = ((bits >>> (e + m)) & 1) != 0;
        long exponent = (bits >>> m) & ((1L << e) - 1);
        long mantissa = bits & ((1L << m) - 1);
        BigInteger significand = BigInteger.valueOf(exponent == 0 ? mantissa : mantissa | (1L << m));
        return Value.finite(negative, pow2(significand, (int) (exponent == 0 ? 1 - bias : exponent - bias) - m));
    }

    /** FNUZ: the code of -0 (0x80) is the one NaN; a zero is +0 only. */
    private static Value fnuz(long bits, int e, int m, int bias) {
        return (bits & 0xFF) == 0x80 ? new Value(Value.Kind.NAN, false, BigDecimal.ZERO) : finiteOnly(bits & 0xFF, e, m, bias);
    }

    /** OCP MX 5.3.3 FP4 E2M1: sign, E2 biased by 1, M1, subnormal 0.M x 2^0, no infinity and no NaN. */
    private static Value e2m1(int b) {
        int exponent = (b >>> 1) & 3;
        int mantissa = b & 1;
        BigInteger significand = BigInteger.valueOf(exponent == 0 ? mantissa : 2 + mantissa);
        return Value.finite((b & 8) != 0, pow2(significand, (exponent == 0 ? 0 : exponent - 1) - 1));
    }

    /**
     * NVIDIA's unsigned floats with 3 mantissa bits, no sign, subnormals, no infinity and all ones the only
     * NaN: UE5M3 (PTX ISA alternate formats: E5 biased by 15) and UE4M3 (CUTLASS float_ue4m3_t: E4 by 7).
     */
    private static Value unsignedM3(int b, int exponentBits, int bias) {
        if (b == (1 << (exponentBits + 3)) - 1) {
            return new Value(Value.Kind.NAN, false, BigDecimal.ZERO);
        }
        int exponent = b >>> 3;
        int mantissa = b & 7;
        BigInteger significand = BigInteger.valueOf(exponent == 0 ? mantissa : 8 + mantissa);
        return Value.finite(false, pow2(significand, Math.max(exponent, 1) - bias - 3));
    }

    /** research formats.md 1.3, decoding rules 1-5. */
    private static Value hifloat8(int b) {
        if (b == 0x80) {
            return new Value(Value.Kind.NAN, false, BigDecimal.ZERO);
        }
        boolean negative = (b & 0x80) != 0;
        if ((b & 0x7F) == 0x6F) {
            return new Value(Value.Kind.INFINITE, negative, BigDecimal.ZERO);
        }
        if ((b & 0x78) == 0x00) {
            int m = b & 7;
            return m == 0 ? Value.finite(false, BigDecimal.ZERO) : Value.finite(negative, pow2(BigInteger.ONE, m - 23));
        }
        int exponent;
        int mbits;
        int mantissa;
        if ((b & 0x78) == 0x08) {
            exponent = 0;
            mbits = 3;
            mantissa = b & 7;
        } else if ((b & 0x70) == 0x10) {
            exponent = (b & 0x08) != 0 ? -1 : 1;
            mbits = 3;
            mantissa = b & 7;
        } else {
            int dot = (b >> 5) & 3;
            int d = dot + 1;
            mbits = 5 - d;
            int field = (b >> mbits) & ((1 << d) - 1);
            int magnitude = (1 << (d - 1)) | (field & ((1 << (d - 1)) - 1));
            exponent = (field >> (d - 1)) != 0 ? -magnitude : magnitude;
            mantissa = b & ((1 << mbits) - 1);
        }
        return Value.finite(negative, pow2(BigInteger.valueOf((1L << mbits) | mantissa), exponent - mbits));
    }

    public static BigDecimal pow2(BigInteger significand, int exponent) {
        BigDecimal s = new BigDecimal(significand);
        return exponent >= 0 ? s.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)))
                : s.multiply(BigDecimal.valueOf(5).pow(-exponent)).scaleByPowerOfTen(exponent);
    }
}
