package convcert.suite.runner;

import convcert.spi.CaseKey;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one case: status, how many vectors ran and differed, the first mismatches with
 * the table rows that decide the expected value of the first, a message for errors, waivers and
 * cases that do not apply, and the waiver (its reason, file:line and date) that accepted the case or
 * has expired, and for a failing case the faults of the catalogue that explain its mismatches.
 */
public record CaseResult(CaseKey key, Status status, long vectors, long mismatches, List<String> firstMismatches,
                         List<String> rules, Map<String, Long> kinds, String message, String waiver, long millis,
                         String diagnosis, Map<String, Long> where) {

    public CaseResult(CaseKey key, Status status, long vectors, long mismatches, List<String> firstMismatches,
                      List<String> rules, Map<String, Long> kinds, String message, String waiver, long millis) {
        this(key, status, vectors, mismatches, firstMismatches, rules, kinds, message, waiver, millis, null, Map.of());
    }

    /** A case that ran no vector: not applicable, could not run, or was cut by an interrupt. */
    public static CaseResult without(CaseKey key, Status status, String message) {
        return new CaseResult(key, status, 0, 0, List.of(), List.of(), Map.of(), message, null, 0);
    }

    public CaseResult judged(Status newStatus, String newMessage, String newWaiver) {
        return new CaseResult(key, newStatus, vectors, mismatches, firstMismatches, rules, kinds, newMessage, newWaiver,
                millis, diagnosis, where);
    }

    /**
     * The same result with the fault catalogue's explanation of its mismatches and where in the input
     * range they fall (mismatches per input binade, "2^e", or "0", "inf", "NaN").
     */
    public CaseResult diagnosed(String explanation, Map<String, Long> binades) {
        return new CaseResult(key, status, vectors, mismatches, firstMismatches, rules, kinds, message, waiver, millis,
                explanation, binades);
    }
}
