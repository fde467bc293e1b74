package io.flowsql.benchmarks.throughput;

import io.flowsql.events.CallTiming;
import io.flowsql.events.TraceEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One question's own LLM floor: the time its chat calls alone would take with nothing queued and nothing else to do,
 * that is the critical path of its calls, read from the start and duration the answer's trace gives each call. Calls
 * that ran side by side (opensearch's extraction, the query crafter's paraphrases, the corrector's candidates) count
 * once, at their longest; calls one after another add up. Each call counts at most L, the simulated service time: what
 * it waited beyond that was a queue (for a connection permit or a server slot), which is overhead, not floor.
 * Embedding requests are no chat calls and stay out of it ({@link #embeddingMillis} gives their own critical path).
 *
 * <p>Two calls ran side by side when their spans overlap by more than half the shorter one: a call sent when the
 * previous one's reply arrived may start a millisecond before it "ended", as spans are read in whole milliseconds on
 * different threads. Answers without timings (written before the trace had them) fall back to the old estimate, per
 * stage its calls × L but at most the stage's time.
 */
final class LlmFloor {
    private LlmFloor() {}

    /** The critical path of the question's chat calls, each counted at most {@code latencyMillis} (0: as it took). */
    static long millis(List<TraceEntry> trace, long latencyMillis) {
        List<CallTiming> calls = timings(trace, false);
        if (calls.isEmpty()) {
            return untimed(trace, latencyMillis);
        }
        return criticalPath(calls, latencyMillis);
    }

    /** The critical path of the question's embedding requests, each counted as long as it took. */
    static long embeddingMillis(List<TraceEntry> trace) {
        return criticalPath(timings(trace, true), 0);
    }

    /** The longest chain of calls each of which started once the one before it had ended. */
    static long criticalPath(List<CallTiming> calls, long latencyMillis) {
        List<CallTiming> sorted = new ArrayList<>(calls);
        sorted.sort(Comparator.comparingLong(c -> c.startMs));
        long[] chain = new long[sorted.size()];
        long longest = 0;
        for (int i = 0; i < chain.length; i++) {
            CallTiming call = sorted.get(i);
            long before = 0;
            for (int j = 0; j < i; j++) {
                if (oneAfterTheOther(sorted.get(j), call)) {
                    before = Math.max(before, chain[j]);
                }
            }
            long weight = latencyMillis > 0 ? Math.min(call.durationMs, latencyMillis) : call.durationMs;
            chain[i] = before + weight;
            longest = Math.max(longest, chain[i]);
        }
        return longest;
    }

    /** {@code later} (which started no earlier) ran after {@code earlier}, not beside it. */
    private static boolean oneAfterTheOther(CallTiming earlier, CallTiming later) {
        long overlap = earlier.startMs + earlier.durationMs - later.startMs;
        return overlap <= Math.min(earlier.durationMs, later.durationMs) / 2;
    }

    private static List<CallTiming> timings(List<TraceEntry> trace, boolean embeddings) {
        List<CallTiming> calls = new ArrayList<>();
        for (TraceEntry stage : trace) {
            if (stage.calls != null) {
                stage.calls.stream().filter(c -> c.isEmbedding() == embeddings).forEach(calls::add);
            }
        }
        return calls;
    }

    private static long untimed(List<TraceEntry> trace, long latencyMillis) {
        long floor = 0;
        for (TraceEntry stage : trace) {
            if (stage.llmCalls > 0) {
                floor += Math.min(stage.llmCalls * latencyMillis, stage.latencyMs);
            }
        }
        return floor;
    }
}
