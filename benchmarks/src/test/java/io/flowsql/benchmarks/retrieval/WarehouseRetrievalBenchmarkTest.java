package io.flowsql.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Runs the warehouse retrieval benchmark (every 10th Spider dev question by default; all with
 * {@code -Dflowsql.retrieval.full=true}) and checks its recall goal; it prints the figures, timing included, which
 * are not asserted (a loaded machine is slower).
 */
class WarehouseRetrievalBenchmarkTest {

    @Test
    void tableRecallAtABudgetNoLargerThanTodaysMedianPrompt() throws Exception {
        WarehouseRetrievalBenchmark.Summary s = WarehouseRetrievalBenchmark.run(
                Path.of(System.getProperty("flowsql.shared.data")), Boolean.getBoolean("flowsql.retrieval.full"));
        assertThat(s.questions()).isGreaterThan(90);
        assertThat(s.budget()).isLessThanOrEqualTo(s.todayMedian());
        assertThat(s.tableRecall()).isGreaterThanOrEqualTo(0.97);
    }
}
