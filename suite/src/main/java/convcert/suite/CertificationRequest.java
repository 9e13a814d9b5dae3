package convcert.suite;

import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.suite.adapters.Adapters;
import convcert.suite.runner.ExpectedCache;
import convcert.suite.runner.Waivers;
import java.nio.file.Path;
import java.util.List;

/**
 * A checked certify request, what Certification runs (CertifyCommand makes it from the options). shard is K
 * of N; vectors and level as given (null: none); cache: the expected-value cache of exhaustive cases, null: none.
 */
record CertificationRequest(Reference reference, String adapter, ClassLoader adapters, Path vectors, String level,
                            List<Conversion> pairs, List<String> pairArguments, String only, boolean exhaustive,
                            int shard, int shards, String shardText, int jobs, Path out, Waivers waivers,
                            long timeoutMillis, int first, ExpectedCache.Settings cache) {

    /** certify's defaults: the time an adapter has for a batch, and the mismatches listed per failing case. */
    static final long TIMEOUT_MILLIS = 10_000;
    static final int FIRST = 10;

    /** A vector set certified whole through an adapter, every other option at certify's default (prove's recording). */
    static CertificationRequest ofVectors(Reference reference, String adapter, Path vectors, Path out) {
        return new CertificationRequest(reference, adapter, Adapters.loader(List.of()), vectors, null, List.of(), List.of(),
                null, false, 1, 1, "1/1", 1, out, Waivers.none(), TIMEOUT_MILLIS, FIRST, null);
    }
}
