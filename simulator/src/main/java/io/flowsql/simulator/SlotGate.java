package io.flowsql.simulator;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's concurrent decoding slots: requests beyond them wait in arrival order, as in vLLM's
 * or llama.cpp's queue; it also measures how many requests were in the server at once, and the slots' busy time
 * (slot-nanoseconds, {@link #busySlotNanos}): between two readings it grows by at most slots × elapsed time, since a
 * slot counts as busy only while it is held.
 */
final class SlotGate {
    private final Semaphore slots;
    private final int slotCount;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger maxBusy = new AtomicInteger();
    private final Object busyClock = new Object();
    /** Slots held now, the busy slot-nanoseconds up to {@link #changedAt}, and when the count last changed. */
    private int held;
    private long busyNanos;
    private long changedAt = System.nanoTime();

    SlotGate(int slotCount) {
        if (slotCount < 1) {
            throw new IllegalArgumentException("at least one slot is needed");
        }
        this.slots = new Semaphore(slotCount, true);
        this.slotCount = slotCount;
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
        heldChanged(1);
    }

    void releaseSlot() {
        heldChanged(-1);
        busy.decrementAndGet();
        slots.release();
    }

    private void heldChanged(int by) {
        synchronized (busyClock) {
            long now = System.nanoTime();
            busyNanos += held * (now - changedAt);
            changedAt = now;
            held += by;
        }
    }

    /** Slot-nanoseconds the slots were held since the gate was made, up to now (and when now was). */
    BusySlots busySlots() {
        synchronized (busyClock) {
            long now = System.nanoTime();
            return new BusySlots(now, busyNanos + held * (now - changedAt), slotCount);
        }
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
