package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.TestProfile;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The sourced test values of the research notes (formats.md 1.7, 1.8, 3.4, 4.1, 5.4, 5.5): computed
 * by other implementations (Huawei's GE codec and op-test helper, ml_dtypes, CUDA's host path,
 * numpy) or exact arithmetic, extracted into research-vectors.csv.
 */
class ResearchVectorsTest {

    @TestFactory
    Stream<DynamicTest> researchVectors() throws IOException {
        Reference reference = TestProfile.reference();
        List<DynamicTest> tests = new ArrayList<>();
        try (Reader in = new InputStreamReader(getClass().getResourceAsStream("/research-vectors.csv"),
                StandardCharsets.UTF_8)) {
            for (CSVRecord r : CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                String name = r.get("from") + "->" + r.get("to") + " " + r.get("rounding") + " " + r.get("form") + " "
                        + r.get("input") + " (" + r.get("source") + ", line " + (r.getRecordNumber() + 1) + ")";
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    Case c = reference.resolve(r.get("from"), r.get("to"), r.get("rounding"), r.get("form"),
                            reference.ctrl(r.get("ctrl")));
                    Converter converter = reference.converter(c);
                    long input = Long.parseUnsignedLong(r.get("input").substring(2), 16);
                    long expected = Long.parseUnsignedLong(r.get("expected").substring(2), 16);
                    var to = c.conversion().to();
                    assertEquals(to.hex(expected), to.hex(converter.apply(input)),
                            () -> name + "\n" + converter.explain(input).render());
                }));
            }
        }
        return tests.stream();
    }
}
