package io.flowsql.console;

import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;

/**
 * A bounded number of one kind of slow work ("Run" of SQL, "Ask" waiting for the broker) at a time: a request that
 * finds every slot taken is answered 503 with {@code Retry-After} at once instead of queueing, so slow work of one kind
 * never takes the server threads the page, the other kind and the event streams need.
 */
final class WorkSlots {
    private final String what;
    private final Semaphore slots;
    private final int retryAfterSeconds;

    WorkSlots(String what, int size, int retryAfterSeconds) {
        this.what = what;
        this.slots = new Semaphore(size);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Runs {@code work} in a free slot, or refuses with 503 when there is none. */
    <T> T run(Callable<T> work) throws Exception {
        if (!slots.tryAcquire()) {
            throw new HttpIo.Refused(503, "the console is running as many " + what + " as it may; try again shortly",
                    retryAfterSeconds);
        }
        try {
            return work.call();
        } finally {
            slots.release();
        }
    }
}
