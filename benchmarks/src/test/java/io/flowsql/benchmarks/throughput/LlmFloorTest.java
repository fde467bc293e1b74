package io.flowsql.benchmarks.throughput;

import io.flowsql.events.CallTiming;
import io.flowsql.events.TraceEntry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LlmFloorTest {

    private static TraceEntry stage(String name, int llmCalls, long latencyMs, CallTiming... calls) {
        TraceEntry entry = new TraceEntry();
        entry.stage = name;
        entry.llmCalls = llmCalls;
        entry.latencyMs = latencyMs;
        entry.calls = calls.length == 0 ? null : List.of(calls);
        return entry;
    }

    private static CallTiming call(long start, long duration) {
        return new CallTiming(start, duration, false);
    }

    private static CallTiming embedding(long start, long duration) {
        return new CallTiming(start, duration, true);
    }

    @Test
    void twoParallelCallsCountOnceAtTheirLongestAndSequentialCallsAddUp() {
        List<TraceEntry> trace = List.of(
                // opensearch.extract: two calls sent at once, one slower; a stage's latency_ms sums them (410)
                stage("opensearch.extract", 2, 410, call(5, 200), call(6, 210)),
                // retrieval embeds: no chat call, stays out of the floor
                stage("opensearch.retrieve", 0, 40, embedding(215, 20), embedding(236, 20)),
                // three calls one after another; the second sent the millisecond before the first "ended"
                stage("opensearch.correct", 3, 600, call(260, 200), call(459, 200), call(660, 200)));
        // uncapped: 210 (the longer of the pair) + 3 × 200
        assertEquals(210 + 600, LlmFloor.millis(trace, 0));
        // each call at most L = 200: the pair counts once, the chain three times
        assertEquals(200 + 600, LlmFloor.millis(trace, 200));
        // the embeddings apart: one after the other, 20 + 20
        assertEquals(40, LlmFloor.embeddingMillis(trace));
    }

    @Test
    void aCallsWaitForAServerSlotBeyondLIsNotFloor() {
        // four calls side by side on a server with two free slots: the last two waited 200 ms for a slot
        List<TraceEntry> trace = List.of(stage("sqlfix.craft", 4, 1200,
                call(0, 200), call(0, 200), call(0, 400), call(0, 400)));
        assertEquals(200, LlmFloor.millis(trace, 200));
        assertEquals(400, LlmFloor.millis(trace, 0));
    }

    @Test
    void aChainThroughParallelBranchesTakesTheLongestBranch() {
        // A, then B and C side by side, then D once both are in: the path A-C-D is the longest
        List<TraceEntry> trace = List.of(stage("x", 4, 900,
                call(0, 100), call(100, 100), call(101, 300), call(401, 100)));
        assertEquals(100 + 300 + 100, LlmFloor.millis(trace, 0));
    }

    @Test
    void answersWithoutTimingsFallBackToCallsTimesLCappedByTheStage() {
        List<TraceEntry> trace = List.of(
                stage("magsql.decompose", 1, 230),
                stage("sqlfix.craft", 4, 420),
                stage("sqlfix.execute", 0, 900));
        assertEquals(200 + 420, LlmFloor.millis(trace, 200));
    }

    @Test
    void runFiguresSubtractEachQuestionsOwnFloor() {
        // question 1 needs 2 s of model time and takes 2.3 s; question 2 needs 0.2 s and takes 0.9 s
        RunFigures figures = new RunFigures("paced", 2, 10_000, 11, List.of(2_300L, 900L), List.of(2_000L, 200L),
                List.of(2_300L, 3_000L));
        assertEquals(700, figures.percentileOverOwnFloor(95));
        assertEquals(300, figures.percentileOverOwnFloor(50));
        // against one shared figure the slow question's own floor would read as overhead
        assertEquals(2_300, figures.percentile(95));
        assertThrows(IllegalArgumentException.class, () -> new RunFigures("bad", 2, 1, 1, List.of(1L, 2L), List.of(1L),
                List.of(1L, 2L)));
    }
}
