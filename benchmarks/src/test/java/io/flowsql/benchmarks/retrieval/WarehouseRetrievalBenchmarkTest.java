package io.flowsql.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Runs the warehouse retrieval benchmark (every 10th Spider dev question by default; all with
 * {@code -Dflowsql.retrieval.full=true}) and checks the recall it reached when it was written (0.81-0.83 at today's
 * median prompt, 0.978 at four times it; the goal of 0.97 at the median is not reached: docs/DATABASE.md), so
 * a change that makes retrieval worse fails; it prints the figures, timing included, which are not asserted.
 */
class WarehouseRetrievalBenchmarkTest {

    @Test
    void tableRecallAtABudgetNoLargerThanTodaysMedianPrompt() throws Exception {
        WarehouseRetrievalBenchmark.Summary s = WarehouseRetrievalBenchmark.run(
                Path.of(System.getProperty("flowsql.shared.data")), Boolean.getBoolean("flowsql.retrieval.full"));
        assertThat(s.questions()).isGreaterThan(90);
        assertThat(s.budget()).isLessThanOrEqualTo(s.todayMedian());
        assertThat(s.tableRecall()).isGreaterThanOrEqualTo(0.78);
        assertThat(s.tableRecallAtFourTimes()).isGreaterThanOrEqualTo(0.95);
    }
}
