package convcert.suite.diagnosis;

import convcert.reference.FormatCodec;

/** How results are judged equal (the run's NaN rule), and one representative of each class of equal results. */
public interface Judge {

    /** Whether actual agrees with expected, both patterns of the codec's format. */
    boolean same(FormatCodec codec, long expected, long actual);

    /** A pattern that every result agreeing with bits has too: the same bits, or one NaN for all where any NaN agrees. */
    long canonical(FormatCodec codec, long bits);
}
