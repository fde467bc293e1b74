package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.benchmarks.eval.semantics.SemanticsChoice;
import io.flowsql.sql.compare.ComparisonMode;
import org.junit.jupiter.api.Test;

/** Without --semantics each benchmark is scored as its own official evaluator does; --comparison picks the project's comparator. */
class ComparisonDefaultTest {

    @Test
    void eachBenchmarkDefaultsToItsOfficialEvaluator() {
        assertThat(SemanticsChoice.of(null, null, "bird-dev").id()).isEqualTo("bird-exec");
        assertThat(SemanticsChoice.of(null, null, "bird-minidev").id()).isEqualTo("bird-exec");
        assertThat(SemanticsChoice.of(null, null, "spider-dev").id()).isEqualTo("spider-exec");
        assertThat(SemanticsChoice.of(null, null, "cosql-dev").id()).isEqualTo("spider-exec");
        assertThat(SemanticsChoice.of(null, null, "mmsql-test").id()).isEqualTo("mmsql-accs");
        assertThat(SemanticsChoice.of(null, ComparisonMode.BIRD_SET, "spider-dev").id()).isEqualTo("flowsql-bird-set");
        assertThat(SemanticsChoice.of("flowsql-spider-test-suite", null, "bird-dev").id()).isEqualTo("flowsql-spider-test-suite");
        assertThatThrownBy(() -> SemanticsChoice.of("exact", null, "spider-dev")).hasMessageContaining("spider-exec");
    }
}
