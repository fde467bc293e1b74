package io.flowsql.benchmarks.throughput;

import io.flowsql.events.TraceEntry;

import java.util.List;

/**
 * One question's own LLM floor: the time its model calls alone would take with nothing queued and nothing else to do.
 * Presets make a variable number of calls per question (a refiner loops, a reviewer re-asks), so a run's p95 compared
 * with the <em>mean</em> floor mixes the questions' own spread with the job's overhead; compared with each question's
 * own floor it shows the overhead alone.
 *
 * <p>Read from the answer's trace, per stage: its calls × L, but never more than the stage's own time, because a
 * stage may run its calls side by side (the query crafter's paraphrases, the corrector's candidates). That cap is
 * the one place the figure can err: a parallel stage's time includes its wait for server slots, which then counts
 * as floor, not as overhead.
 */
final class LlmFloor {
    private LlmFloor() {}

    static long millis(List<TraceEntry> trace, long latencyMillis) {
        long floor = 0;
        for (TraceEntry stage : trace) {
            if (stage.llmCalls > 0) {
                floor += Math.min(stage.llmCalls * latencyMillis, stage.latencyMs);
            }
        }
        return floor;
    }
}
