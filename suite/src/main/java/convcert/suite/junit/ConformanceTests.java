package convcert.suite.junit;

import convcert.suite.runner.SuiteRun;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The conformance suite as JUnit 5 dynamic tests: one container per pair, one test per (rounding,
 * saturation state). Cases the adapter does not implement end aborted (skipped), never passed.
 */
@ExtendWith(SuiteRunResolver.class)
public class ConformanceTests {

    @TestFactory
    Stream<DynamicNode> conformance(SuiteRun run) {
        return run.plan().entrySet().stream().map(pair -> DynamicContainer.dynamicContainer(pair.getKey(),
                pair.getValue().stream().map(p -> DynamicTest.dynamicTest(p.key().nameInPair(),
                        () -> CaseOutcome.run(run, p)))));
    }
}
