package convcert.reference;

/**
 * How a block's values become its elements (or its elements values): the reference's own conversion, or a fault
 * model's in its place, so that a quantizer whose element conversion has a value bug (ties away, truncation, a
 * flush) is a block conversion too. Operands carry the value and, under rs, its random bits above it.
 */
public interface ElementConversion {

    /** One operand's element. */
    long apply(long operand);

    /** The element of the operand's value times 2^scale, exactly, then rounded once. */
    long applyScaled(long operand, int scale);

    /** How an operand holds its value and lane. */
    Operands operands();

    /** The value conversion this is, or stands in for. */
    Case spec();
}
