package convcert.spec;

import java.util.List;

/** One row of decisions.csv: an unclear point of the document, the options and the default. */
public record Decision(String id, String question, List<String> options, String defaultOption,
                       String reason, String source, Location location) {
}
