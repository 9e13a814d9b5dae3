package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The p3109 profile end to end: a format family added as one families.csv row (and a conversions.csv row
 * naming it) converts, generates and certifies with no code; every report under the draft says it is a
 * draft; and the golden vectors separate the two readings of a negative value into an unsigned format.
 */
class P3109ProfileTest {

    /** A copy of spec-tables/p3109 with a 6-bit family: the folder's name stays the profile's. */
    static Path withSixBitFamily(Path temp) throws IOException {
        Path dir = temp.resolve("p3109");
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(Fixtures.HOME.resolve("spec-tables/p3109"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Files.writeString(dir.resolve("families.csv"), "p3109-k6,binary{k}p{p}{s}{d},,6,3 4,signed unsigned,extended,"
                + "a test's 6-bit formats,the draft's parameters\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("conversions.csv"), "half,p3109-k6,rn rz,satfinite satnone,P,,test,"
                + "a family added from the tables alone,\n", java.nio.file.StandardOpenOption.APPEND);
        return dir;
    }

    @Test
    void aFamilyRowAloneAddsFormatsThatConvertAndCertify(@TempDir Path temp) throws IOException {
        Path tables = withSixBitFamily(temp);
        Fixtures.Run check = Fixtures.run("", "tables", "check", "--tables", tables.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("formats      51"), "47 and 4 new (signed P 3 and 4, unsigned P 3 and 4)\n" + check.out());
        // binary6p3se: bias 2^(6-3-1) = 4; 1.0 is 2^(K-2) = 0x10; 2^-5 the smallest subnormal; 12 = 1.10 x 2^3 the
        // largest (0x1E), 14 above it: +infinity (0x1F, all ones below the sign).
        Fixtures.Run one = Fixtures.run("", "convert", "--tables", tables.toString(), "--from", "half", "--to", "binary6p3se",
                "--rounding", "rn", "--saturation", "satnone", "0x3C00", "0x2800", "0x4A00", "0x4B00");
        assertEquals(List.of("0x10", "0x01", "0x1E", "0x1F"), one.out().strip().lines().toList(), one.err());
        // binary6p4ue: unsigned, bias 2^(6-4) = 4; 1.0 at 2^(K-1) = 0x20; the NaN all ones; -1 below the range.
        Fixtures.Run unsigned = Fixtures.run("", "convert", "--tables", tables.toString(), "--from", "half", "--to",
                "binary6p4ue", "--rounding", "rn", "--saturation", "satnone", "0x3C00", "0xBC00");
        assertEquals(List.of("0x20", "0x3F"), unsigned.out().strip().lines().toList(), unsigned.err());

        Path out = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(out, "--tables", tables.toString(), "--level", "quick", "--adapter", "reference",
                "--pair", "half:binary6p3se", "--pair", "half:binary6p4ue");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        assertEquals(8, report.path("summary").path("cases").asInt(), "2 pairs x 2 modes x 2 saturation modes");
        assertEquals(8, report.path("summary").path("passed").asInt());
        assertTrue(report.path("summary").path("certifiedVectors").asLong() > 1000, report.path("summary").toString());
        assertTrue(report.path("cases").get(0).path("name").asText().matches("half->binary6p\\d[su]e/r[nz]-sat(finite|none)"),
                report.path("cases").get(0).path("name").asText());
    }

    /** Every report names the texts it certifies against, with versions, and says first that one is a draft. */
    @Test
    void everyReportNamesItsTextsAndSaysTheDraftIsOne(@TempDir Path temp) throws IOException {
        Path out = temp.resolve("report");
        Fixtures.Run r = Fixtures.certify(out, "--profile", "p3109", "--level", "quick", "--adapter", "reference",
                "--pair", "float:binary8p4se");
        assertEquals(0, r.exit(), r.out() + r.err());
        String notice = "DRAFT: profile p3109 restates IEEE P3109";
        String text = "IEEE P3109 (arithmetic formats for machine learning) draft D1 (2026): the working group's Interim "
                + "Report v4.0 of 26 June 2026";
        assertTrue(r.out().contains("note: " + notice), r.out());
        assertTrue(r.out().contains("text: " + text), r.out());
        assertTrue(r.out().contains("text: IEEE 754-2019 (floating-point arithmetic) 2019"), r.out());
        JsonNode json = Fixtures.report(out);
        assertTrue(json.path("notes").get(0).asText().startsWith(notice));
        assertEquals(2, json.path("documents").size(), json.path("documents").toString());
        assertTrue(json.path("documents").get(0).asText().startsWith(text + ", the Saturate table of July 2026 (draft): "),
                json.path("documents").get(0).asText());
        String html = Files.readString(out.resolve("conformance.html"));
        assertTrue(html.contains("<b>Draft.</b> profile p3109 restates IEEE P3109"));
        assertTrue(html.contains("<tr><th>text</th><td><code>IEEE P3109"), "the HTML's provenance names the text");
        try (Stream<Path> xml = Files.list(out.resolve("junit"))) {
            for (Path f : xml.toList()) {
                String junit = Files.readString(f);
                assertTrue(junit.contains("name=\"convcert.note.1\" value=\"" + notice), f.toString());
                assertTrue(junit.contains("name=\"convcert.document.1\" value=\"IEEE P3109"), f.toString());
            }
        }
        String allure = Files.readString(out.resolve("allure-results/environment.properties"));
        assertTrue(allure.contains("note.1=" + notice) && allure.contains("document.2=IEEE 754-2019"), allure);
        Fixtures.Run check = Fixtures.run("", "tables", "check", "--profile", "p3109");
        assertTrue(check.out().contains("document     IEEE P3109") && check.out().contains("(draft)"), check.out());
    }

    /** Vectors made under each reading of p3109-unsigned-negative catch an implementation of the other. */
    @Test
    void theUnsignedNegativeReadingsSeparate(@TempDir Path temp) {
        for (String[] readings : new String[][] {{"below-range", "zero"}, {"zero", "below-range"}}) {
            Path vectors = temp.resolve(readings[0]);
            String decision = "p3109-unsigned-negative=" + readings[0];
            Fixtures.Run g = Fixtures.run("", "generate", "--profile", "p3109", "--level", "quick", "--format", "bin",
                    "--pair", "bfloat16:binary8p4ue", "--decision", decision, "--out", vectors.toString());
            assertEquals(0, g.exit(), g.err());
            Fixtures.Run s = Fixtures.run("", "score", "--profile", "p3109", "--decision", decision, "--vectors",
                    vectors.toString(), "--out", temp.resolve("score-" + readings[0]).toString());
            String fault = "p3109-unsigned-negative-" + readings[1];
            assertTrue(s.out().lines().anyMatch(l -> l.startsWith(fault + " ") && l.contains(" caught ")),
                    "vectors of " + readings[0] + " catch the " + readings[1] + " reading\n" + s.out());
        }
    }
}
