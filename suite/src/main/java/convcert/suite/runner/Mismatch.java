package convcert.suite.runner;

/** One vector the implementation got wrong, with the kind of difference. */
public record Mismatch(long input, long expected, long actual, MismatchKind kind) {
}
