package io.flowsql.benchmarks.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a soak sent and what came back: per question the phase it was sent in and when, per answer how often it was
 * committed; from these the counts (answered, doubled, lost) and the latency percentiles per phase.
 */
final class SoakLedger {
    private record Sent(String phase, long atNanos) {}

    private final Map<String, Sent> sent = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> latencyMillisByPhase = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
    private final Map<String, Long> firstAnswerNanos = new ConcurrentHashMap<>();

    void sent(String requestId, String phase) {
        sent.put(requestId, new Sent(phase, System.nanoTime()));
    }

    void answered(String requestId, String status) {
        int count = answers.computeIfAbsent(requestId, id -> new AtomicInteger()).incrementAndGet();
        Sent s = sent.get(requestId);
        if (count == 1 && s != null) {
            firstAnswerNanos.put(requestId, System.nanoTime());
            statuses.computeIfAbsent(status, x -> new AtomicInteger()).incrementAndGet();
            long millis = (System.nanoTime() - s.atNanos()) / 1_000_000;
            latencyMillisByPhase.computeIfAbsent(s.phase(), p -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(millis);
        }
    }

    /** When the first answer to a question sent at or after {@code sentFromNanos} arrived; 0 if none did yet. */
    long firstAnswerToQuestionSentAfter(long sentFromNanos) {
        return sent.entrySet().stream().filter(e -> e.getValue().atNanos() >= sentFromNanos)
                .map(e -> firstAnswerNanos.get(e.getKey())).filter(java.util.Objects::nonNull)
                .mapToLong(Long::longValue).min().orElse(0);
    }

    int sent() {
        return sent.size();
    }

    /** Questions sent with at least one committed answer. */
    int answered() {
        return (int) sent.keySet().stream().filter(answers::containsKey).count();
    }

    int doubled() {
        return (int) answers.values().stream().filter(c -> c.get() > 1).count();
    }

    int lost() {
        return sent() - answered();
    }

    Map<String, Integer> statuses() {
        Map<String, Integer> out = new TreeMap<>();
        statuses.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** "phase: n=… p50=… ms p95=… ms" per phase, in phase order. */
    List<String> latencyLines() {
        List<String> out = new ArrayList<>();
        new TreeMap<>(latencyMillisByPhase).forEach((phase, list) -> {
            List<Long> sorted;
            synchronized (list) {
                sorted = new ArrayList<>(list);
            }
            sorted.sort(null);
            out.add(String.format("%-14s n=%d p50=%d ms p95=%d ms", phase, sorted.size(), percentile(sorted, 50),
                    percentile(sorted, 95)));
        });
        return out;
    }

    private static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
