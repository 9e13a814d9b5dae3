package convcert.suite.runner;

import convcert.suite.spi.CaseKey;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one case: status, how many vectors ran and differed, the first mismatches with
 * the table rows that decide the expected value of the first, and a message for errors, waivers and
 * cases that do not apply.
 */
public record CaseResult(CaseKey key, Status status, long vectors, long mismatches, List<String> firstMismatches,
                         List<String> rules, Map<String, Long> kinds, String message, long millis) {
}
