package io.flowsql.simulator;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's concurrent decoding slots: requests beyond them wait in arrival order, as in vLLM's
 * or llama.cpp's queue; it also measures how many requests were in the server at once.
 */
final class SlotGate {
    private final Semaphore slots;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger maxBusy = new AtomicInteger();

    SlotGate(int slotCount) {
        if (slotCount < 1) {
            throw new IllegalArgumentException("at least one slot is needed");
        }
        this.slots = new Semaphore(slotCount, true);
    }

    /** Counts a request as in the server until its visit's {@link Visit#leave()} (the first call; later ones do nothing). */
    Visit arrived() {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        return new Visit();
    }

    /** One request's stay in the server. */
    final class Visit {
        private final AtomicBoolean left = new AtomicBoolean();

        void leave() {
            if (left.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }

    void acquireSlot() throws InterruptedException {
        slots.acquire();
        maxBusy.accumulateAndGet(busy.incrementAndGet(), Math::max);
    }

    void releaseSlot() {
        busy.decrementAndGet();
        slots.release();
    }

    int maxInFlight() {
        return maxInFlight.get();
    }

    int maxBusySlots() {
        return maxBusy.get();
    }

    int queued() {
        return slots.getQueueLength();
    }
}
