package convcert.suite.runner;

import convcert.opencl.MemoryVector;
import convcert.reference.BlockConverter;
import convcert.reference.Converter;
import convcert.spi.CaseKey;
import convcert.spi.MemoryCase;
import java.util.List;
import java.util.function.Supplier;

/** A case ready to run (Planner): its key, how many vectors it has, and what runs it. */
public sealed interface Planned {

    CaseKey key();

    long count();

    /**
     * A conversion: reference defines the expected values; whole reads all its vectors, parts the same
     * in consecutive pieces, one per adapter instance (--jobs; one part otherwise). alike: the variants of
     * its state that run with it in lockstep (the same expected values), itself among them; or only itself.
     */
    record Values(CaseKey key, long count, Converter reference, Supplier<Batches> whole, List<Supplier<Batches>> parts,
                  Alike alike) implements Planned {

        public Values(CaseKey key, long count, Converter reference, Supplier<Batches> whole, List<Supplier<Batches>> parts) {
            this(key, count, reference, whole, parts, null);
        }
    }

    /** The variants of one state run together: their keys and references, in order (SuiteRun runs them once). */
    record Alike(List<CaseKey> keys, List<Converter> references) {
    }

    /** A block-scaled format's case: vectors gives {inputs, expected} when it runs. */
    record Blocks(CaseKey key, long count, BlockConverter reference, Supplier<long[][]> vectors) implements Planned {
    }

    /** An OpenCL memory case, its vectors made by the reference when it runs. */
    record Memory(CaseKey key, MemoryCase operation, Supplier<List<MemoryVector>> vectors) implements Planned {

        @Override
        public long count() {
            return 0;
        }
    }

    /** A case that cannot run as its vectors say (the tables select another state): an error naming why. */
    record Refused(CaseKey key, long count, String why) implements Planned {
    }
}
