package io.flowsql.benchmarks.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When the job failed over: polls the time of the job's latest failure (a task or global failure that restarted
 * tasks, wall-clock millis) and keeps every distinct one, so that a fault's detection time is the first failover
 * after the fault started. Faults the job rides out without a restart (a stopped model server, a stalled link, a
 * stopped database) have none: the job's own clients retry or answer {@code failed}.
 */
final class FailoverWatch implements AutoCloseable {
    private final LongSupplier lastFailoverMillis;
    private final List<Long> failovers = new ArrayList<>();
    private final ScheduledExecutorService poller;

    FailoverWatch(LongSupplier lastFailoverMillis, long everyMillis) {
        this.lastFailoverMillis = lastFailoverMillis;
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "soak-failover-watch");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::poll, 0, everyMillis, TimeUnit.MILLISECONDS);
    }

    /** Reads the latest failover once and keeps it if it is new. */
    synchronized void poll() {
        long at = lastFailoverMillis.getAsLong();
        if (at > 0 && (failovers.isEmpty() || failovers.get(failovers.size() - 1) != at)) {
            failovers.add(at);
        }
    }

    /** The first failover at or after {@code fromMillis} and before {@code toMillis}. */
    synchronized OptionalLong firstIn(long fromMillis, long toMillis) {
        return failovers.stream().mapToLong(Long::longValue).filter(t -> t >= fromMillis && t < toMillis).min();
    }

    /** How many failovers were seen at or after {@code fromMillis} and before {@code toMillis}. */
    synchronized int countIn(long fromMillis, long toMillis) {
        return (int) failovers.stream().filter(t -> t >= fromMillis && t < toMillis).count();
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
