package io.flowsql.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every chat request the server received and the tokens of the answers it sent (as their usage said),
 * and, when asked to, keeps the requests for tests to read.
 */
final class RequestLog {
    private final boolean keep;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong tokens = new AtomicLong();
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

    void served(int promptTokens, int completionTokens) {
        tokens.addAndGet((long) promptTokens + completionTokens);
    }

    long tokens() {
        return tokens.get();
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
        tokens.set(0);
    }
}
