package convcert.suite.junit;

import convcert.common.Home;
import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spec.SpecTables;
import convcert.spi.ConverterAdapter;
import convcert.suite.adapters.Adapters;
import convcert.suite.adapters.SuiteContext;
import convcert.suite.runner.RunConfig;
import convcert.suite.runner.SuiteRun;
import convcert.suite.runner.VectorStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The run of the suite under Surefire (ConformanceSuiteTest), from system properties:
 * -Dconvcert.adapter=NAME[:options] (default reference), -Dconvcert.vectors=DIR (default the home's
 * vectors/), -Dconvcert.pairs=float:half,... (default all), -Dconvcert.profile=NAME (default ascend-c, whose
 * set vectors/ holds).
 */
final class SystemPropertiesRun {

    private SystemPropertiesRun() {
    }

    static SuiteRun create() {
        Reference reference = Reference.of(SpecTables.load(Home.specTables().resolve(System.getProperty("convcert.profile",
                "ascend-c"))));
        String spec = System.getProperty("convcert.adapter", "reference");
        Path vectors = Path.of(System.getProperty("convcert.vectors", Home.vectors().toString()));
        List<Conversion> pairs = reference.pairs(Arrays.stream(System.getProperty("convcert.pairs", "").split(","))
                .filter(p -> !p.isBlank()).toList());
        ConverterAdapter adapter = Adapters.create(spec, new SuiteContext(Home.path(), vectors, 10_000, reference));
        return new SuiteRun(RunConfig.of(reference, spec, adapter).vectors(VectorStore.open(vectors)).cases(pairs, null, false)
                .outputsAreExpected(Adapters.computesExpected(adapter, reference)).build());
    }
}
