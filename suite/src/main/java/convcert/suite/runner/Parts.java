package convcert.suite.runner;

import convcert.common.Progress;
import convcert.reference.Converter;
import convcert.spi.AdapterException;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.diagnosis.MismatchLog;
import convcert.suite.model.CaseResult;
import convcert.suite.model.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The adapter instances a run's conversion cases run on: the run's own, and for --jobs more of them,
 * made when first needed. A case in several parts (consecutive input ranges) runs each part on its own
 * instance and thread, and the results merge in part order, so the report is the one a single
 * instance would give: counts summed, the first mismatches those of the earliest inputs, the first
 * adapter failure named with its part.
 */
final class Parts implements AutoCloseable {

    private final AdapterInstance own;
    private final RunConfig config;
    private final ValueRunner runner;
    private final Consumer<String> notes;
    private final List<AdapterInstance> more = new ArrayList<>();

    Parts(AdapterInstance own, RunConfig config, ValueRunner runner, Consumer<String> notes) {
        this.own = own;
        this.config = config;
        this.runner = runner;
        this.notes = notes;
    }

    /** Runs a case's parts (one part: on the run's own instance) and merges their outcomes. */
    ValueRunner.Outcome run(CaseKey key, Converter reference, List<Supplier<Batches>> parts, Progress progress) {
        return runAlike(List.of(key), List.of(reference), parts, progress).getFirst();
    }

    /**
     * Runs cases alike (ValueRunner.runAlike: the variants of a state, in lockstep where the adapter
     * allows), each part on its instance, and merges each case's outcomes over the parts.
     */
    List<ValueRunner.Outcome> runAlike(List<CaseKey> keys, List<Converter> references, List<Supplier<Batches>> parts,
                                       Progress progress) {
        if (parts.size() == 1) {
            return runner.runAlike(own, keys, references, parts.getFirst(), progress).stream()
                    .map(o -> new ValueRunner.Outcome(o.result(), diagnosed(List.of(o)), o.wrongFlags(), o.log())).toList();
        }
        List<AdapterInstance> instances;
        try {
            instances = instances(parts.size());
        } catch (AdapterException e) {
            return keys.stream().map(key -> new ValueRunner.Outcome(CaseResult.without(key, Status.ADAPTER_ERROR,
                    "could not start another instance of the adapter for --jobs " + parts.size() + ": " + e.getMessage()),
                    Map.<Long, Long>of())).toList();
        }
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parts.size(), r -> {
            Thread t = new Thread(r, "convcert-part");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<ValueRunner.Outcome>>> running = new ArrayList<>();
            for (int j = 0; j < parts.size(); j++) {
                AdapterInstance instance = instances.get(j);
                Supplier<Batches> batches = parts.get(j);
                running.add(pool.submit(() -> runner.runAlike(instance, keys, references, batches, progress)));
            }
            List<List<ValueRunner.Outcome>> byPart = new ArrayList<>();
            for (Future<List<ValueRunner.Outcome>> f : running) {
                byPart.add(f.get());
            }
            List<ValueRunner.Outcome> merged = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                int key = k;
                List<ValueRunner.Outcome> outcomes = byPart.stream().map(o -> o.get(key)).toList();
                merged.add(new ValueRunner.Outcome(CaseResult.merged(keys.get(k), outcomes.stream()
                        .map(ValueRunner.Outcome::result).toList(), config.firstMismatches(), ValueRunner.millis(start)),
                        diagnosed(outcomes), diagnosed(outcomes, ValueRunner.Outcome::wrongFlags), joined(outcomes)));
            }
            return merged;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return keys.stream().map(key -> new ValueRunner.Outcome(CaseResult.without(key, Status.NOT_RUN, "interrupted"),
                    Map.<Long, Long>of())).toList();
        } finally {
            pool.shutdownNow();
        }
    }

    /** The wrong answers the diagnosis tries: each part's in input order, at most DIAGNOSED in all. */
    private static Map<Long, Long> diagnosed(List<ValueRunner.Outcome> outcomes) {
        return diagnosed(outcomes, ValueRunner.Outcome::wrong);
    }

    /** Of the wrong answers or the wrong flags (which). */
    private static <V> Map<Long, V> diagnosed(List<ValueRunner.Outcome> outcomes,
                                              Function<ValueRunner.Outcome, Map<Long, V>> which) {
        Map<Long, V> wrong = new LinkedHashMap<>();
        for (ValueRunner.Outcome o : outcomes) {
            which.apply(o).entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(ValueRunner.DIAGNOSED - wrong.size())
                    .forEach(e -> wrong.put(e.getKey(), e.getValue()));
        }
        return wrong;
    }

    /** The parts' mismatch logs as one, in input order (null if a part has none: it did not run). */
    private static MismatchLog joined(List<ValueRunner.Outcome> outcomes) {
        MismatchLog first = outcomes.getFirst().log();
        for (ValueRunner.Outcome o : outcomes.subList(1, outcomes.size())) {
            if (first == null || o.log() == null) {
                return null;
            }
            first.join(o.log());
        }
        return first;
    }

    /** The instances for a case in n parts: the run's own, then one more per part, made when first needed. */
    private List<AdapterInstance> instances(int n) throws AdapterException {
        synchronized (more) {
            while (more.size() < n - 1) {
                ConverterAdapter another = config.moreAdapters().create();
                more.add(own.another(another));
            }
            List<AdapterInstance> all = new ArrayList<>(List.of(own));
            all.addAll(more.subList(0, n - 1));
            return all;
        }
    }

    /** Stops the extra instances (the run's own is the run's to close). */
    @Override
    public void close() {
        synchronized (more) {
            more.forEach(AdapterInstance::close);
        }
    }
}
