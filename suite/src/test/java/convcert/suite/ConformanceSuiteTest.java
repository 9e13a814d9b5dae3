package convcert.suite;

import convcert.suite.junit.ConformanceTests;

/**
 * The conformance suite under Surefire: with the default -Dconvcert.adapter=reference it certifies the
 * reference against the committed golden vectors (a self-check of vectors, runner and adapter
 * plumbing). mvn test -Dconvcert.adapter=jdk certifies the JDK instead.
 */
class ConformanceSuiteTest extends ConformanceTests {
}
