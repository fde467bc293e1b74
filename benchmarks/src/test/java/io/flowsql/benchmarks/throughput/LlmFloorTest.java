package io.flowsql.benchmarks.throughput;

import io.flowsql.events.TraceEntry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LlmFloorTest {

    private static TraceEntry stage(String name, int llmCalls, long latencyMs) {
        TraceEntry entry = new TraceEntry();
        entry.stage = name;
        entry.llmCalls = llmCalls;
        entry.latencyMs = latencyMs;
        return entry;
    }

    @Test
    void sequentialCallsCountInFullParallelOnesAtTheStagesTimeAndSqlStagesNotAtAll() {
        List<TraceEntry> trace = List.of(
                stage("magsql.decompose", 1, 230),      // one call, 30 ms of queueing and parsing: 200
                stage("magsql.refine", 3, 700),         // three calls one after another: 600
                stage("sqlfix.craft", 4, 420),          // four calls side by side (two rounds): at most its 420 ms
                stage("sqlfix.execute", 0, 900));       // SQL only: no floor
        assertEquals(200 + 600 + 420, LlmFloor.millis(trace, 200));
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
