package io.flowsql.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Runs the warehouse retrieval benchmark on the in-memory union catalog (every 10th Spider dev question by default; all
 * with {@code -Dflowsql.retrieval.full=true}; the PostgreSQL warehouse and the pipeline's EX run behind
 * {@code deploy/bench.sh warehouse-retrieval}) and checks the recall it reached with schema routing (0.954 of the
 * tables and 0.955 of the columns at today's median prompt, 0.990 of the tables at four times it, the right schema
 * first for 0.835), so a change that makes retrieval worse fails; it prints the figures, CPU included, which are not
 * asserted.
 */
class WarehouseRetrievalBenchmarkTest {

    @Test
    void tableRecallAtABudgetNoLargerThanTodaysMedianPrompt() throws Exception {
        WarehouseRetrievalBenchmark.Summary s = WarehouseRetrievalBenchmark.run(
                Path.of(System.getProperty("flowsql.shared.data")), Boolean.getBoolean("flowsql.retrieval.full"), null);
        assertThat(s.questions()).isGreaterThan(90);
        assertThat(s.budget()).isLessThanOrEqualTo(s.todayMedian());
        assertThat(s.tableRecall()).isGreaterThanOrEqualTo(0.93);
        assertThat(s.tableRecallAtFourTimes()).isGreaterThanOrEqualTo(0.98);
        assertThat(s.columnRecall()).isGreaterThanOrEqualTo(0.93);
        assertThat(s.routingTop1()).isGreaterThanOrEqualTo(0.8);
    }
}
