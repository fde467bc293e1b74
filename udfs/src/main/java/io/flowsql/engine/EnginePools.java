package io.flowsql.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's own threads, fixed in number and made once per engine (never per call): {@link #work()} runs every
 * stage's own work off the Flink task thread (prompt building, SQL, value-index builds, file reads), and
 * {@link #callbacks()} completes LLM calls (and runs what a stage chains on them) instead of the JVM's common pool.
 * Tasks queue when all threads are busy; the operators' capacities bound how many can queue.
 */
public final class EnginePools implements AutoCloseable {
    /** How long {@link #close()} waits for running tasks to end after interrupting them. */
    static final long CLOSE_WAIT_SECONDS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(EnginePools.class);

    private final ExecutorService work;
    private final ExecutorService callbacks;

    private EnginePools(int workThreads, int callbackThreads) {
        this.work = fixed("flowsql-work-", workThreads);
        this.callbacks = fixed("flowsql-llm-callback-", callbackThreads);
    }

    /** {@code workThreads} for stage work (blocking: SQL, index builds), {@code callbackThreads} for LLM completions. */
    public static EnginePools of(int workThreads, int callbackThreads) {
        return new EnginePools(workThreads, callbackThreads);
    }

    /** Sized for this machine: 4 work threads per core (they mostly wait on SQLite), at least 8; one callback thread per core, at least 2. */
    public static EnginePools forThisMachine() {
        int cores = Runtime.getRuntime().availableProcessors();
        return of(Math.max(8, 4 * cores), Math.max(2, cores));
    }

    public Executor work() {
        return work;
    }

    public Executor callbacks() {
        return callbacks;
    }

    private static ExecutorService fixed(String prefix, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory);
    }

    /**
     * Interrupts the threads and waits (at most {@link #CLOSE_WAIT_SECONDS} s) until every task that already runs has
     * ended: the engine closes when a task's last operator closes, and Flink then closes the task's class loader, so a
     * thread still logging or loading a class after it fails ("Trying to access closed classloader", seen in the soak).
     */
    @Override
    public void close() {
        work.shutdownNow();
        callbacks.shutdownNow();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
            for (ExecutorService pool : new ExecutorService[] {work, callbacks}) {
                if (!pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    LOG.warn("engine threads still run {} s after close; a task ignores interruption", CLOSE_WAIT_SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
