package convcert.suite.runner;

import convcert.reference.Reference;
import convcert.spec.Conversion;
import convcert.spi.ConverterAdapter;
import java.io.PrintWriter;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * What a run runs (SuiteRun), made by {@link #of}'s builder, every option at certify's default unless set. shard
 * is 1-based; shards 1 means all. jobs: how many instances of the adapter an exhaustive case's range is split
 * over (more made by moreAdapters when first needed). outputsAreExpected: the adapter computes exactly this
 * run's expected values (the reference adapter on the run's own reference), so computed expectations are
 * neither recomputed nor compared.
 */
public record RunConfig(Reference reference, String adapterSpec, ConverterAdapter adapter, VectorStore vectors,
                        List<Conversion> pairs, String only, boolean exhaustive, int shard, int shards, Waivers waivers,
                        long timeoutMillis, int firstMismatches, LocalDate today, PrintWriter progress, boolean terminal,
                        int jobs, SuiteRun.AdapterFactory moreAdapters, boolean outputsAreExpected, ExpectedCache.Settings cache) {

    /** A run of this reference through this adapter (adapterSpec: how the command line named it). */
    public static Builder of(Reference reference, String adapterSpec, ConverterAdapter adapter) {
        return new Builder(reference, adapterSpec, adapter);
    }

    /** The options of a run, each with its default until set. */
    public static final class Builder {
        private final Reference reference;
        private final String adapterSpec;
        private final ConverterAdapter adapter;
        private VectorStore vectors;
        private List<Conversion> pairs = List.of();
        private String only;
        private boolean exhaustive;
        private int shard = 1;
        private int shards = 1;
        private Waivers waivers = Waivers.none();
        private long timeoutMillis = 10_000;
        private int firstMismatches = 10;
        private LocalDate today = LocalDate.now(ZoneOffset.UTC);
        private PrintWriter progress;
        private boolean terminal;
        private int jobs = 1;
        private SuiteRun.AdapterFactory moreAdapters;
        private boolean outputsAreExpected;
        private ExpectedCache.Settings cache;

        private Builder(Reference reference, String adapterSpec, ConverterAdapter adapter) {
            this.reference = reference;
            this.adapterSpec = adapterSpec;
            this.adapter = adapter;
        }

        /** The vector set (none for an exhaustive run). */
        public Builder vectors(VectorStore store) {
            this.vectors = store;
            return this;
        }

        /** --pair, --only and --exhaustive: which cases. */
        public Builder cases(List<Conversion> selected, String glob, boolean allInputs) {
            this.pairs = selected;
            this.only = glob;
            this.exhaustive = allInputs;
            return this;
        }

        /** --shard K/N. */
        public Builder shard(int k, int n) {
            this.shard = k;
            this.shards = n;
            return this;
        }

        public Builder waivers(Waivers given) {
            this.waivers = given;
            return this;
        }

        /** --timeout-ms and --first. */
        public Builder limits(long timeout, int first) {
            this.timeoutMillis = timeout;
            this.firstMismatches = first;
            return this;
        }

        /** The day waivers are judged on. */
        public Builder today(LocalDate day) {
            this.today = day;
            return this;
        }

        /** Where progress goes, and whether it is a terminal (a bar) or a log (lines). */
        public Builder progress(PrintWriter out, boolean isTerminal) {
            this.progress = out;
            this.terminal = isTerminal;
            return this;
        }

        /** --jobs: instances of the adapter, more of them made by more. */
        public Builder jobs(int n, SuiteRun.AdapterFactory more) {
            this.jobs = n;
            this.moreAdapters = more;
            return this;
        }

        public Builder outputsAreExpected(boolean computesExpected) {
            this.outputsAreExpected = computesExpected;
            return this;
        }

        /** The expected-value cache of exhaustive cases (null: none). */
        public Builder cache(ExpectedCache.Settings settings) {
            this.cache = settings;
            return this;
        }

        public RunConfig build() {
            return new RunConfig(reference, adapterSpec, adapter, vectors, pairs, only, exhaustive, shard, shards, waivers,
                    timeoutMillis, firstMismatches, today, progress, terminal, jobs, moreAdapters, outputsAreExpected, cache);
        }
    }
}
