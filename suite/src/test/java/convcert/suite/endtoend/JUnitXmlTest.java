package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.SAXException;

/**
 * The JUnit XML of a run with passes, a mismatch and cases that do not apply is valid against the schema strict CI readers use (junit-xunit.xsd), and carries the run's
 * adapter, profile and decisions as properties.
 */
class JUnitXmlTest {

    @TempDir
    Path temp;

    static void validate(Path xml) throws IOException, SAXException {
        var schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(JUnitXmlTest.class.getResource("junit-xunit.xsd"));
        schema.newValidator().validate(new StreamSource(xml.toFile()));
    }

    @Test
    void everyOutcomeIsValidJUnitXml() throws IOException, SAXException {
        // the JDK keeps NaN payloads that canonical NaNs compared bit for bit reject: a failure beside
        // passes (float->int32) and cases the jdk adapter does not implement
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--adapter", "jdk", "--pair", "float:half", "--pair",
                "float:int32", "--decision", "nan-encoding=canonical", "--decision", "nan-comparison=exact");
        assertEquals(1, r.exit(), r.out() + r.err());
        Path xml = temp.resolve("out/junit/TEST-convcert-jdk.xml");
        validate(xml);
        String text = Files.readString(xml);
        assertTrue(text.contains("<property name=\"convcert.adapter\" value=\"jdk\"/>"), text.substring(0, 600));
        assertTrue(text.contains("<property name=\"convcert.decision.nan-comparison\" value=\"exact\"/>"));
        assertTrue(text.contains("<skipped message=\"not applicable") && text.contains("<failure type=\"mismatch\""));
    }

    /** The shard jobs of a pipeline publish into one test view: their test names and files must differ. */
    @Test
    void shardsNameTheirTestsAndFilesAfterTheShard() throws IOException, SAXException {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String shard : java.util.List.of("1023/1024", "1024/1024")) {
            Path out = temp.resolve(shard.replace('/', '-'));
            Fixtures.Run r = Fixtures.certify(out, "--adapter", "reference", "--exhaustive", "--pair", "float:fp8_e5m2",
                    "--only", "float->fp8_e5m2/rn-sat", "--shard", shard);
            assertEquals(0, r.exit(), r.out() + r.err());
            Path xml = out.resolve("junit/TEST-convcert-reference-shard-" + shard.replace("/", "-of-") + ".xml");
            validate(xml);
            var cases = java.util.regex.Pattern.compile("<testcase classname=\"([^\"]*)\" name=\"([^\"]*)\"")
                    .matcher(Files.readString(xml)).results().map(m -> m.group(1) + "/" + m.group(2)).toList();
            assertEquals(java.util.List.of("ascend-c.float->fp8_e5m2/rn-sat [shard " + shard + "]"), cases);
            names.addAll(cases);
        }
        assertEquals(2, names.size(), "no two shards' cases share a name");
    }

    @Test
    void aBrokenFileIsRefusedByTheSchema() throws IOException {
        Path bad = temp.resolve("bad.xml");
        Files.writeString(bad, "<testsuites skipped=\"1\"><testsuite name=\"x\" tests=\"1\"/></testsuites>");
        assertEquals(true, org.junit.jupiter.api.Assertions.assertThrows(SAXException.class, () -> validate(bad))
                .getMessage().contains("skipped"));
    }
}
