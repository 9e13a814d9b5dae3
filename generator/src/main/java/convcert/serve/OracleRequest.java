package convcert.serve;

import convcert.common.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One line of the oracle's protocol (ORACLE.md beside the Python package): a verb, then KEY=VALUE words.
 * {@code decision} may repeat (ID=OPTION, split at its first '='); every other key is given at most once.
 *
 * @param verb      case (resolve and describe a case) or convert (convert the arrays of a shared file)
 * @param words     the keys given once, in order
 * @param decisions the decision overrides, ID to OPTION, in order
 */
record OracleRequest(String verb, Map<String, String> words, Map<String, String> decisions) {

    /** The keys that name a case, and whose values make the key of its cached converter. */
    static final List<String> CASE_KEYS = List.of("profile", "tables", "from", "to", "rounding", "saturation", "ctrl");

    static OracleRequest parse(String line) {
        String[] tokens = line.strip().split("\\s+");
        if (tokens.length == 0 || tokens[0].isEmpty()) {
            throw new UsageException("empty request; expected 'case KEY=VALUE ...' or 'convert KEY=VALUE ...'");
        }
        Map<String, String> words = new LinkedHashMap<>();
        Map<String, String> decisions = new LinkedHashMap<>();
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            if (eq <= 0 || eq == tokens[i].length() - 1) {
                throw new UsageException("word " + (i + 1) + " '" + tokens[i] + "' is not KEY=VALUE");
            }
            String key = tokens[i].substring(0, eq);
            String value = tokens[i].substring(eq + 1);
            if (key.equals("decision")) {
                int d = value.indexOf('=');
                if (d <= 0 || d == value.length() - 1) {
                    throw new UsageException("word " + (i + 1) + ": decision '" + value + "' is not ID=OPTION");
                }
                decisions.put(value.substring(0, d), value.substring(d + 1));
            } else if (words.putIfAbsent(key, value) != null) {
                throw new UsageException("word " + (i + 1) + ": '" + key + "' given twice");
            }
        }
        return new OracleRequest(tokens[0], words, decisions);
    }

    String get(String key) {
        return words.get(key);
    }

    String require(String key) {
        String value = words.get(key);
        if (value == null) {
            throw new UsageException(verb + " needs " + key + "=...");
        }
        return value;
    }

    /** A non-negative integer word. */
    long number(String key) {
        String value = require(key);
        try {
            long n = Long.parseLong(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new UsageException(key + "=" + value + " is not a non-negative integer");
    }

    /** What names this request's case: the case keys and the decisions, for the converter cache. */
    String caseKey() {
        List<String> parts = new ArrayList<>();
        for (String k : CASE_KEYS) {
            parts.add(k + "=" + words.getOrDefault(k, ""));
        }
        decisions.forEach((id, option) -> parts.add("decision=" + id + "=" + option));
        return String.join(" ", parts);
    }

    /** The words no verb reads: a misspelt key is an error, not a silent default. */
    void refuseUnknown(List<String> known) {
        for (String k : words.keySet()) {
            if (!known.contains(k)) {
                throw new UsageException("unknown key '" + k + "'; " + verb + " takes " + String.join(" ", known) + " decision");
            }
        }
    }
}
