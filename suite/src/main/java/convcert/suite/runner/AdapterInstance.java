package convcert.suite.runner;

import convcert.spi.AdapterException;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One instance of the adapter under test (the run's own, or one more for --jobs), called on a worker
 * thread with a deadline per call. A call that does not return in time is abandoned with its thread;
 * a failed call asks the adapter to recover, and the next case goes on.
 */
public final class AdapterInstance implements AutoCloseable {

    /** A call into the adapter. */
    public interface Call {
        void run() throws AdapterException;
    }

    private final ConverterAdapter adapter;
    private final List<Capability> capabilities;
    private final long timeoutMillis;
    private ExecutorService worker = newWorker();

    /** capabilities: the adapter's, with type aliases resolved to the profile's names. */
    public AdapterInstance(ConverterAdapter adapter, List<Capability> capabilities, long timeoutMillis) {
        this.adapter = adapter;
        this.capabilities = capabilities;
        this.timeoutMillis = timeoutMillis;
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "convcert-adapter");
            t.setDaemon(true);
            return t;
        });
    }

    public ConverterAdapter adapter() {
        return adapter;
    }

    public List<Capability> capabilities() {
        return capabilities;
    }

    /** Whether the adapter declares the case. */
    public boolean applies(CaseKey key) {
        return capabilities.stream().anyMatch(c -> c.matches(key));
    }

    /** work on the worker thread within the deadline; what: the call in words, made only for a timeout's message. */
    public void call(Call work, Supplier<String> what) throws AdapterException {
        Future<?> call = worker.submit(() -> {
            work.run();
            return null;
        });
        try {
            call.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            worker.shutdownNow();
            worker = newWorker(); // the stuck thread is abandoned; the adapter recovers after the failure
            throw new AdapterException("no answer within " + timeoutMillis + " ms (" + what.get() + ")");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof AdapterException a ? a : new AdapterException("adapter threw " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted");
        }
    }

    /** After a failed call: the adapter restarts its process or device if it can; the next case reports it if not. */
    public void recover() {
        try {
            adapter.recover();
        } catch (AdapterException e) {
            // The next case reports it again if the adapter stays broken.
        }
    }

    /** Stops the worker; the adapter itself is closed by whoever made it. */
    @Override
    public void close() {
        worker.shutdownNow();
    }
}
