package convcert.faults;

import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.spec.Layout;

/**
 * The output faults of NaN and infinity results: some only change which NaN comes out (invisible under
 * nan-comparison=any), others change a result's class, NaN to infinity, NaN to a number, infinity to NaN,
 * which every reading of NaN comparison sees.
 */
final class NanFaults {

    private NanFaults() {
    }

    /** The faulty implementation of an output fault p of this family, or null where it cannot arise. */
    static Faulty of(String p, Converter right, FormatCodec src, FormatCodec dst) {
        long sign = dst.signBit();
        return switch (p) {
            case "nan-canonical" -> !dst.hasNan() ? null
                    : Faulty.after(right, (x, r) -> dst.decode(r).kind() == Decoded.Kind.NAN ? dst.format().nan() : r);
            case "nan-sign-dropped" -> sign == 0 || !dst.hasNan() ? null
                    : Faulty.after(right, (x, r) -> dst.decode(r).kind() == Decoded.Kind.NAN ? r & ~sign : r);
            case "nan-unquieted" -> dst.format().layout() != Layout.IEEE ? null : Faulty.after(right, (x, r) -> {
                long quiet = 1L << (dst.format().mantissaBits() - 1);
                return dst.decode(r).kind() == Decoded.Kind.NAN ? r & ~quiet : r; // an emptied payload reads as infinity
            });
            case "nan-truncated" -> !truncatesPayload(src, dst) ? null : Faulty.after(right, (x, r) -> {
                long v = x & src.mask();
                if (src.decode(v).kind() != Decoded.Kind.NAN) {
                    return r;
                }
                long payload = (v & ((1L << src.format().mantissaBits()) - 1))
                        >>> (src.format().mantissaBits() - dst.format().mantissaBits());
                return dst.infinity((v & src.signBit()) != 0) | payload; // the exponent field kept all ones
            });
            case "nan-to-zero" -> !dst.hasNan() ? null
                    : Faulty.after(right, (x, r) -> dst.decode(r).kind() == Decoded.Kind.NAN ? dst.zero(false) : r);
            case "infinity-to-nan" -> !dst.hasInfinity() || !dst.hasNan() ? null
                    : Faulty.after(right, (x, r) -> dst.decode(r).kind() == Decoded.Kind.INFINITE ? dst.format().nan() : r);
            case "nan-to-int-min" -> src.isInteger() || !dst.format().isSigned() ? null : Faulty.after(right,
                    (x, r) -> src.decode(x).kind() == Decoded.Kind.NAN ? dst.integerMin() : r);
            default -> throw new IllegalArgumentException("output " + p);
        };
    }

    /** Whether a NaN's payload loses bits on the way, as truncating IEEE NaNs of a wider mantissa does. */
    private static boolean truncatesPayload(FormatCodec src, FormatCodec dst) {
        return src.format().layout() == Layout.IEEE && dst.format().layout() == Layout.IEEE && src.hasNan()
                && dst.hasNan() && dst.hasInfinity() && src.format().mantissaBits() > dst.format().mantissaBits();
    }
}
