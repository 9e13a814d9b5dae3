package convcert.spec;

import java.util.Map;

/**
 * One row of examples.csv: a worked example of the document, as bits. Rows whose status is
 * "erratum" hold the corrected value in expected and the document's claim in documentSays.
 *
 * @param input the input's bits; for a scaled pair the operand, its scale (the scale column) above them
 * @param ctrl the CTRL bits the example sets; the rest keep their power-on values
 */
public record Example(String id, String table, Conversion conversion, long input, Rounding rounding, Form form,
                      Map<Integer, Integer> ctrl, long expected, boolean erratum, String documentSays,
                      String note, Location location) {
}
