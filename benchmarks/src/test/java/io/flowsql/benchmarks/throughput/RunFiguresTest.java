package io.flowsql.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The steady-state rate leaves out the pipeline's fill and drain; the whole-run rate counts them. */
class RunFiguresTest {

    @Test
    void steadyStateRateLeavesOutFillAndDrain() {
        // 100 answers: none for the first 2 s (the pipeline fills), then one every 100 ms (10 q/s)
        List<Long> answeredAt = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            answeredAt.add(2000L + 100L * i);
        }
        List<Long> latencies = answeredAt.stream().map(t -> 2000L).toList();
        RunFigures run = new RunFigures("run", 100, answeredAt.get(99), 100, latencies, answeredAt);

        assertThat(run.steadyQuestionsPerSecond()).isCloseTo(10.0, within(0.01));
        assertThat(run.questionsPerSecond()).as("the whole run includes the 2 s fill").isCloseTo(100 / 11.9, within(0.01));
        assertThat(run.steadyLine(10, 1000)).contains("10.00 q/s", "ratio 1.000");
    }

    @Test
    void withoutAnswerTimesSteadyIsTheWholeRun() {
        RunFigures run = new RunFigures("seq", 40, 8000, 40, List.of(200L));
        assertThat(run.steadyQuestionsPerSecond()).isEqualTo(run.questionsPerSecond());
    }
}
