package io.flowsql.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Counts every chat request the server received and, when asked to, keeps them for tests to read. */
final class RequestLog {
    private final boolean keep;
    private final AtomicLong count = new AtomicLong();
    private final List<RecordedRequest> requests = new ArrayList<>();

    RequestLog(boolean keep) {
        this.keep = keep;
    }

    void add(RecordedRequest request) {
        count.incrementAndGet();
        if (keep) {
            synchronized (requests) {
                requests.add(request);
            }
        }
    }

    long count() {
        return count.get();
    }

    List<RecordedRequest> snapshot() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    void clear() {
        synchronized (requests) {
            requests.clear();
        }
        count.set(0);
    }
}
