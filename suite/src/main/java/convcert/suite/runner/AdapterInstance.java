package convcert.suite.runner;

import convcert.spi.AdapterException;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import convcert.suite.model.LateOutput;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One instance of the adapter under test (the run's own, or one more for --jobs), called on a worker
 * thread with a deadline per call. A call that does not return in time abandons the instance: it is
 * never called again (the stuck call may still be running), it is closed on a thread of its own, and
 * the next call gets a new one from the factory. A call that fails otherwise asks the adapter to
 * recover. Closing has a deadline too.
 */
public final class AdapterInstance implements AutoCloseable {

    /** A call into the adapter. */
    public interface Call {
        void run(ConverterAdapter adapter) throws AdapterException;
    }

    private final List<Capability> capabilities;
    private final long timeoutMillis;
    private final SuiteRun.AdapterFactory factory;
    private final Consumer<String> notes;
    /** Takes output that followed an earlier case (LateOutput) to amend that case's result; false: no such case. */
    private final Predicate<LateOutput> late;
    private ExecutorService worker = newWorker("convcert-adapter");
    /** The instance it was made with: what the adapter declares (its memory cases, alignment checks). */
    private final ConverterAdapter declaring;
    /** The instance calls go to; null once abandoned, until the next call makes another. */
    private volatile ConverterAdapter current;

    /**
     * capabilities: the adapter's, with type aliases resolved to the profile's names; factory: makes
     * another instance after a timeout (null: none can be made); notes: where what the report must say
     * goes (an instance abandoned, a close that did not return); late: where output that followed an
     * earlier case goes.
     */
    public AdapterInstance(ConverterAdapter adapter, List<Capability> capabilities, long timeoutMillis,
                           SuiteRun.AdapterFactory factory, Consumer<String> notes, Predicate<LateOutput> late) {
        this.current = adapter;
        this.declaring = adapter;
        this.capabilities = capabilities;
        this.timeoutMillis = timeoutMillis;
        this.factory = factory;
        this.notes = notes;
        this.late = late;
    }

    /** An instance that is never replaced, for benchmarks and tools. */
    public AdapterInstance(ConverterAdapter adapter, List<Capability> capabilities, long timeoutMillis) {
        this(adapter, capabilities, timeoutMillis, null, note -> { }, output -> false);
    }

    /** Another instance of the same run (--jobs), adapter one more the factory made. */
    AdapterInstance another(ConverterAdapter adapter) {
        return new AdapterInstance(adapter, capabilities, timeoutMillis, factory, notes, late);
    }

    private static ExecutorService newWorker(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    public List<Capability> capabilities() {
        return capabilities;
    }

    /** The adapter as it declared itself when made (the one that answers may be a newer instance). */
    public ConverterAdapter declaring() {
        return declaring;
    }

    /** Whether the adapter declares the case. */
    public boolean applies(CaseKey key) {
        return capabilities.stream().anyMatch(c -> c.matches(key));
    }

    /**
     * work on the worker thread within the deadline; what: the call in words, made only for a timeout's
     * message. Output that followed an earlier case, found before this call sent anything, is that case's
     * failure where late takes it, and the call is made once more on the recovered adapter; else this one's.
     */
    public synchronized void call(Call work, Supplier<String> what) throws AdapterException {
        try {
            once(work, what);
        } catch (LateOutput e) {
            if (!late.test(e)) {
                throw e;
            }
            recover();
            once(work, what);
        }
    }

    private void once(Call work, Supplier<String> what) throws AdapterException {
        ConverterAdapter adapter = current != null ? current : replacement();
        Future<?> call = worker.submit(() -> {
            work.run(adapter);
            return null;
        });
        try {
            call.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            abandon(adapter); // closing it ends a read blocked on its device: the call then says what came
            String sent = whatCame(call);
            call.cancel(true);
            throw new AdapterException("no answer within " + timeoutMillis + " ms (" + what.get() + ")" + sent
                    + "; the instance was abandoned and is not called again");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof AdapterException a ? a : new AdapterException("adapter threw " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted");
        }
    }

    /**
     * What a timed-out call had received when its adapter was closed (a short answer: "OK 2366, then 4,729 of the
     * 4,732 bytes"), as the call's failure says it within a few seconds (closing asks a device to quit for a
     * second before it ends it); nothing where it says nothing.
     */
    private static String whatCame(Future<?> call) {
        try {
            call.get(3, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause() instanceof AdapterException a ? "; when it was closed: " + a.getMessage() : "";
        } catch (TimeoutException | InterruptedException | java.util.concurrent.CancellationException e) {
            return "";
        }
        return "";
    }

    /** A new instance after a timeout, made on the worker within the deadline. */
    private ConverterAdapter replacement() throws AdapterException {
        if (factory == null) {
            throw new AdapterException("the adapter was abandoned after a timeout and no new instance can be made");
        }
        Future<ConverterAdapter> made = worker.submit(factory::create);
        try {
            current = made.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return current;
        } catch (TimeoutException e) {
            made.cancel(true);
            worker.shutdownNow();
            worker = newWorker("convcert-adapter");
            throw new AdapterException("a new instance of the adapter was not made within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            throw new AdapterException("could not make a new instance of the adapter: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted");
        }
    }

    /** Never called again: its worker is left behind and it is closed on a thread of its own. */
    private void abandon(ConverterAdapter adapter) {
        current = null;
        notes.accept("an instance of the adapter that did not answer in time was abandoned: closed, never called again, "
                + "and a new one made for the calls after it");
        worker.shutdownNow();
        worker = newWorker("convcert-adapter");
        Thread closing = new Thread(adapter::close, "convcert-abandoned-adapter");
        closing.setDaemon(true);
        closing.start();
    }

    /** After a failed call: the adapter restarts its process or device if it can; the next case reports it if not. */
    public void recover() {
        ConverterAdapter adapter = current;
        if (adapter == null) {
            return;
        }
        try {
            adapter.recover();
        } catch (AdapterException e) {
            // The next case reports it again if the adapter stays broken.
        }
    }

    /** Stops the worker and closes the instance, waiting for its close() at most the call deadline. */
    @Override
    public void close() {
        worker.shutdownNow();
        ConverterAdapter adapter = current;
        current = null;
        if (adapter == null) {
            return;
        }
        Thread closing = new Thread(adapter::close, "convcert-close");
        closing.setDaemon(true);
        closing.start();
        try {
            closing.join(Math.max(timeoutMillis, 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closing.isAlive()) {
            notes.accept("the adapter's close() did not return within " + Math.max(timeoutMillis, 1000)
                    + " ms; it was left behind");
        }
    }
}
