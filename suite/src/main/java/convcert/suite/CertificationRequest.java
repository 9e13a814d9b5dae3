package convcert.suite;

import convcert.reference.Reference;
import convcert.spec.Conversion;
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
}
