package convcert.spec;

/** One row of ctrl.csv: a CTRL register bit that takes part in conversions. */
public record CtrlBit(int bit, String name, int powerOn, String appliesTo, String meaning, Location location) {
}
