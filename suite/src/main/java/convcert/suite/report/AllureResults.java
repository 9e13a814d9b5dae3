package convcert.suite.report;

import convcert.suite.model.CaseResult;
import convcert.suite.model.ConformanceReport;
import convcert.suite.model.MismatchKind;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.TestResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What convcert adds to the Allure results that allure-jupiter's listener writes for each case: the
 * run's environment, the categories of failures, and a result for each case an interrupt cut.
 */
final class AllureResults {

    private AllureResults() {
    }

    /**
     * Allure's environment (the run's adapter, profile, tables, decisions, provenance) and categories:
     * one per kind of mismatch (the failure messages name their kinds in brackets), adapter failures.
     */
    static void extras(ConformanceReport r, Path results) throws IOException {
        Files.createDirectories(results);
        StringBuilder env = new StringBuilder();
        Map<String, String> values = new LinkedHashMap<>();
        values.put("adapter", r.adapter());
        values.put("profile", r.profile());
        values.put("tables", r.tables());
        values.put("source", r.source());
        values.put("convcert", r.provenance() == null ? "" : r.provenance().convcert() + " " + r.provenance().commit());
        values.put("implementation", r.provenance() == null ? "" : r.provenance().implementation());
        r.decisions().forEach((id, option) -> values.put("decision." + id, option));
        for (int i = 0; i < r.documents().size(); i++) {
            values.put("document." + (i + 1), r.documents().get(i));
        }
        for (int i = 0; i < r.notes().size(); i++) {
            values.put("note." + (i + 1), r.notes().get(i));
        }
        values.forEach((k, v) -> env.append(Markup.property(k)).append('=').append(Markup.property(v)).append('\n'));
        Files.writeString(results.resolve("environment.properties"), env);
        StringBuilder categories = new StringBuilder("[\n");
        for (MismatchKind kind : r.summary().kinds().keySet()) {
            categories.append("  {\"name\": \"").append(json(kind.label())).append("\", \"matchedStatuses\": [\"failed\"], ")
                    .append("\"messageRegex\": \"(?s).*\\\\[").append(json(Pattern.quote(kind.label())))
                    .append("\\\\].*\"},\n");
        }
        categories.append("  {\"name\": \"adapter failures\", \"matchedStatuses\": [\"broken\"]}\n]\n");
        Files.writeString(results.resolve("categories.json"), categories);
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** An Allure result for a case cut by the interrupt: broken, with why. */
    static void notRun(AllureLifecycle allure, CaseResult r) {
        String uuid = UUID.randomUUID().toString();
        allure.scheduleTestCase(new TestResult().setUuid(uuid).setName(r.key().name()).setFullName(r.key().name())
                .setHistoryId(r.key().profile() + "/" + r.key().name()).setStatus(Status.BROKEN)
                .setStatusDetails(new StatusDetails().setMessage(r.message())));
        allure.startTestCase(uuid);
        allure.stopTestCase(uuid);
        allure.writeTestCase(uuid);
    }
}
