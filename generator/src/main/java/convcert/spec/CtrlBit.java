package convcert.spec;

/**
 * One row of ctrl.csv: a CTRL register bit that takes part in conversions. triedFirst is the value
 * tried first when choosing each saturation state's primary variant (rows in file order, the first
 * changing fastest).
 */
public record CtrlBit(int bit, String name, int powerOn, int triedFirst, String appliesTo, String meaning,
                      Location location) {
}
