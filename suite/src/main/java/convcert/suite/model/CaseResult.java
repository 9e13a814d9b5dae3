package convcert.suite.model;

import convcert.spi.CaseKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one case: status, how many vectors ran and differed, the first mismatches with
 * the table rows that decide the expected value of the first, a message for errors, waivers and
 * cases that do not apply, the waiver (its reason, file:line and date) that accepted the case or
 * has expired, for a failing case the faults of the catalogue that explain its mismatches, and where
 * its mismatching inputs fall (per input binade: "2^e", or "0", "inf", "NaN", of the inputs kept for the
 * diagnosis; and for an exhaustive case, every mismatch in its {@link InputMap}, null otherwise).
 */
public record CaseResult(CaseKey key, Status status, long vectors, long mismatches, List<FirstMismatch> firstMismatches,
                         List<String> rules, Map<MismatchKind, Long> kinds, String message, String waiver, long millis,
                         Diagnosis diagnosis, Map<String, Long> where, InputMap inputMap) {

    public CaseResult(CaseKey key, Status status, long vectors, long mismatches, List<FirstMismatch> firstMismatches,
                      List<String> rules, Map<MismatchKind, Long> kinds, String message, long millis) {
        this(key, status, vectors, mismatches, firstMismatches, rules, kinds, message, null, millis, null, Map.of(), null);
    }

    /** A case that ran no vector: not applicable, could not run, or was cut by an interrupt. */
    public static CaseResult without(CaseKey key, Status status, String message) {
        return new CaseResult(key, status, 0, 0, List.of(), List.of(), Map.of(), message, 0);
    }

    /**
     * The result of a case run in parts (consecutive input ranges, in order): counts and kinds summed,
     * the first mismatches and the rules of the earliest, and the first part that could not finish
     * decides the status, named with its part. firstMismatches: how many to keep.
     */
    public static CaseResult merged(CaseKey key, List<CaseResult> parts, int firstMismatches, long millis) {
        long vectors = 0;
        long mismatches = 0;
        List<FirstMismatch> first = new ArrayList<>();
        List<String> rules = List.of();
        Map<MismatchKind, Long> kinds = new LinkedHashMap<>();
        CaseResult broken = null;
        int brokenPart = 0;
        InputMap map = null;
        for (int j = 0; j < parts.size(); j++) {
            CaseResult p = parts.get(j);
            vectors += p.vectors;
            mismatches += p.mismatches;
            first.addAll(p.firstMismatches.subList(0, Math.min(p.firstMismatches.size(), firstMismatches - first.size())));
            rules = rules.isEmpty() ? p.rules : rules;
            p.kinds.forEach((kind, n) -> kinds.merge(kind, n, Long::sum));
            map = p.inputMap == null ? map : p.inputMap.plus(map);
            if (broken == null && p.status != Status.PASS && p.status != Status.FAIL) {
                broken = p;
                brokenPart = j + 1;
            }
        }
        Status status = broken != null ? broken.status : mismatches == 0 ? Status.PASS : Status.FAIL;
        String message = broken == null ? null : "part " + brokenPart + " of " + parts.size() + " (--jobs): " + broken.message;
        return new CaseResult(key, status, vectors, mismatches, first, rules, kinds, message, null, millis, null, Map.of(),
                map);
    }

    public CaseResult judged(Status newStatus, String newMessage, String newWaiver) {
        return new CaseResult(key, newStatus, vectors, mismatches, firstMismatches, rules, kinds, newMessage, newWaiver,
                millis, diagnosis, where, inputMap);
    }

    /** The same result with the fault catalogue's explanation of its mismatches (null: none) and where they fall. */
    public CaseResult diagnosed(Diagnosis explanation, Map<String, Long> binades) {
        return new CaseResult(key, status, vectors, mismatches, firstMismatches, rules, kinds, message, waiver, millis,
                explanation, binades, inputMap);
    }

    /** The same result without its input map (a case whose inputs were not all of the source's). */
    public CaseResult withoutInputMap() {
        return new CaseResult(key, status, vectors, mismatches, firstMismatches, rules, kinds, message, waiver, millis,
                diagnosis, where, null);
    }
}
