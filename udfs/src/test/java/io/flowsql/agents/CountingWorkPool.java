package io.flowsql.agents;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A stage work pool (for {@code StageTrace.work}) of real threads that counts the tasks a stage hands it. */
public final class CountingWorkPool implements Executor, AutoCloseable {
    private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> new Thread(r, "flowsql-work-test"));
    private final AtomicInteger handed = new AtomicInteger();

    @Override
    public void execute(Runnable task) {
        handed.incrementAndGet();
        threads.execute(task);
    }

    /** How many tasks were handed to the pool. */
    public int handed() {
        return handed.get();
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
