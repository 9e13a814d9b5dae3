package convcert.suite.diagnosis;

/** A case's inputs with their expected results, a batch at a time: what a diagnosis checks a cause against. */
public interface VectorSource {

    /** Fills in[] and expected[] with the next batch; returns its size, 0 at the end. */
    int next(long[] in, long[] expected);
}
