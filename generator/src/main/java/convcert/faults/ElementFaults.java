package convcert.faults;

import convcert.reference.BlockConverter;
import convcert.reference.BlockFunction;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.ElementConversion;
import convcert.reference.FormatCodec;
import convcert.reference.Operands;
import convcert.reference.Reference;
import convcert.reference.Values;

/**
 * A value fault (ties, rounding, saturation, flush, NaN, ...) inside a quantizer's element conversion: the block
 * or tensor converted as the case converts it, each element by the faulty value conversion. An element of an MX
 * block converts its value divided by the block's scale, exactly; where that quotient is not a value of the
 * source format (it underflows it), the fault cannot be told from the right conversion there, which gives it.
 */
public final class ElementFaults {

    private ElementFaults() {
    }

    /** The case's vectors with every element converted by the fault; null where the fault cannot arise in the elements. */
    public static BlockFunction of(Fault f, FaultModel model, Reference reference, BlockConverter c) {
        if (!c.toBlock() || f.mechanism() == Mechanism.BLOCK || f.mechanism() == Mechanism.FLAGS) {
            return null;
        }
        Case element = c.elementCase();
        Faulty w = model.implementation(f, element);
        if (w == null) {
            return null;
        }
        Converter right = reference.converter(element);
        BlockConverter faulty = reference.blockConverter(c.block(), c.mode(), c.toBlock(), conversion(w, right));
        return (in, i, out, o) -> faulty.apply(in, i, out, o, 1);
    }

    private static ElementConversion conversion(Faulty w, Converter right) {
        FormatCodec src = right.source();
        return new ElementConversion() {
            @Override
            public long apply(long operand) {
                return w.apply(operand);
            }

            @Override
            public long applyScaled(long operand, int scale) {
                long scaled = scaled(src, operand, scale);
                return scaled < 0 ? right.applyScaled(operand, scale) : w.apply(scaled);
            }

            @Override
            public Operands operands() {
                return right.operands();
            }

            @Override
            public Case spec() {
                return right.spec();
            }
        };
    }

    /** The operand with its value times 2^scale, exactly, its lane kept; -1 where that value is not one of the format. */
    private static long scaled(FormatCodec src, long operand, int scale) {
        long value = operand & src.mask();
        Decoded d = src.decode(value);
        if (d.kind() != Decoded.Kind.FINITE || scale == 0) {
            return operand; // zero, infinity and NaN scale to themselves
        }
        int binade = d.binade() + scale;
        if (binade > src.maxExponent() || binade < src.minExponent() - 64) {
            return -1;
        }
        long bits = src.encode(d.negative(), d.significand(), d.exponent() + scale);
        Decoded back = src.decode(bits);
        boolean exact = back.kind() == Decoded.Kind.FINITE && Values.exact(back.negative(), back.significand(), back.exponent())
                .compareTo(Values.exact(d.negative(), d.significand(), d.exponent() + scale)) == 0;
        return exact ? operand & ~src.mask() | bits : -1;
    }
}
