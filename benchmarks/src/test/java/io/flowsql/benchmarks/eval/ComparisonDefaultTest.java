package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.compare.ComparisonMode;
import org.junit.jupiter.api.Test;

/** Without --comparison each benchmark is scored as its own official evaluator does. */
class ComparisonDefaultTest {

    @Test
    void birdBenchmarksUseSetSemanticsAndTheOthersTheTestSuite() {
        assertThat(ReportChoice.comparisonFor(null, "bird-dev")).isEqualTo(ComparisonMode.BIRD_SET);
        assertThat(ReportChoice.comparisonFor(null, "bird-minidev")).isEqualTo(ComparisonMode.BIRD_SET);
        assertThat(ReportChoice.comparisonFor(null, "spider-dev")).isEqualTo(ComparisonMode.SPIDER_TEST_SUITE);
        assertThat(ReportChoice.comparisonFor(null, "cosql-dev")).isEqualTo(ComparisonMode.SPIDER_TEST_SUITE);
        assertThat(ReportChoice.comparisonFor(ComparisonMode.BIRD_SET, "spider-dev")).isEqualTo(ComparisonMode.BIRD_SET);
    }
}
