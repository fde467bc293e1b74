package io.flowsql.benchmarks.eval.metrics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MetricsMathTest {

    private static BenchmarkItem item(String id, String difficulty, String gold) {
        return new BenchmarkItem(id, 0, "db", "q" + id, "", gold, difficulty, null, 0, null);
    }

    private static ItemOutcome outcome(BenchmarkItem item, boolean correct, String goldError, double ratio) {
        return new ItemOutcome(item, "SELECT 1", null, goldError, null, correct, ratio, List.of());
    }

    @Test
    void executionAccuracyLeavesGoldErrorsOutAndSplitsByDifficulty() {
        List<ItemOutcome> outcomes = List.of(
                outcome(item("1", "easy", "SELECT 1"), true, null, Double.NaN),
                outcome(item("2", "easy", "SELECT 1"), false, null, Double.NaN),
                outcome(item("3", "hard", "SELECT 1"), true, null, Double.NaN),
                outcome(item("4", "hard", "SELECT x"), false, "INVALID_SQL: no such column: x", Double.NaN));
        assertThat(ExecutionAccuracy.overall(outcomes)).isEqualTo(new Accuracy(2, 3));
        assertThat(ExecutionAccuracy.overall(outcomes).percent()).isCloseTo(66.667, within(0.001));
        assertThat(ExecutionAccuracy.byDifficulty(outcomes))
                .containsExactlyInAnyOrderEntriesOf(Map.of("easy", new Accuracy(1, 2), "hard", new Accuracy(1, 1)));
        assertThat(ExecutionAccuracy.goldErrors(outcomes)).isEqualTo(1);
    }

    @Test
    void difficultiesAreListedFromEasiestToHardest() {
        List<ItemOutcome> outcomes = List.of(
                outcome(item("1", "extra", "SELECT 1"), true, null, 1.0),
                outcome(item("2", "medium", "SELECT 1"), true, null, 1.0),
                outcome(item("3", "easy", "SELECT 1"), true, null, 1.0),
                outcome(item("4", "hard", "SELECT 1"), true, null, 1.0));
        assertThat(ExecutionAccuracy.byDifficulty(outcomes).keySet()).containsExactly("easy", "medium", "hard", "extra");
    }

    @Test
    void vesAndRvesFollowBirdsFormulas() {
        // ratios 4 (pred 4x faster), 0.25 (4x slower), 0 (wrong): VES = (200 + 50 + 0)/3, R-VES = (125 + 50 + 0)/3
        List<ItemOutcome> outcomes = List.of(
                outcome(item("1", "simple", "SELECT 1"), true, null, 4.0),
                outcome(item("2", "simple", "SELECT 1"), true, null, 0.25),
                outcome(item("3", "simple", "SELECT 1"), false, null, 0.0),
                outcome(item("4", "simple", "SELECT 1"), true, null, Double.NaN));
        assertThat(ValidEfficiency.ves(outcomes)).isCloseTo(250.0 / 3, within(1e-9));
        assertThat(ValidEfficiency.rves(outcomes)).isCloseTo(175.0 / 3, within(1e-9));
        assertThat(ValidEfficiency.reward(1.0)).isEqualTo(1.0);
        assertThat(ValidEfficiency.reward(0.5)).isEqualTo(0.75);
        assertThat(ValidEfficiency.reward(0.2)).isEqualTo(0.25);
        assertThat(ValidEfficiency.ves(List.of(outcome(item("5", "simple", "SELECT 1"), true, null, Double.NaN)))).isNaN();
    }

    @Test
    void meanRatioDropsOutliersBeyondThreeStandardDeviations() {
        List<Double> ratios = new java.util.ArrayList<>(java.util.Collections.nCopies(20, 1.0));
        ratios.add(100.0);
        // mean = 120/21 ≈ 5.71, std ≈ 21.1: 100 lies inside mean+3σ ≈ 69? no: 5.71 + 63.4 = 69.1 < 100, so it is dropped
        assertThat(ValidEfficiency.meanRatio(ratios)).isEqualTo(1.0);
        assertThat(ValidEfficiency.meanRatio(List.of(2.0, 2.0, 2.0))).isEqualTo(2.0);
        assertThat(ValidEfficiency.meanRatio(List.of(1.0, 3.0))).isEqualTo(2.0);
    }

    @Test
    void nearestRankPercentiles() {
        Percentiles p = Percentiles.of(List.of(5L, 1L, 4L, 2L, 3L, 10L, 7L, 6L, 9L, 8L));
        assertThat(p.p50()).isEqualTo(5);
        assertThat(p.p90()).isEqualTo(9);
        assertThat(p.p99()).isEqualTo(10);
        assertThat(p.max()).isEqualTo(10);
        assertThat(p.mean()).isEqualTo(5.5);
        assertThat(Percentiles.of(List.of()).count()).isZero();
    }

    @Test
    void stageLatencyAndTokenCostComeFromTheTrace() {
        BenchmarkItem it = item("1", "easy", "SELECT 1");
        List<ItemOutcome> outcomes = List.of(
                new ItemOutcome(it, "SELECT 1", null, null, null, true, Double.NaN,
                        List.of(new StageCost("detect", 100, 1000, 10), new StageCost("generate", 300, 2000, 90))),
                new ItemOutcome(it, "SELECT 1", null, null, null, true, Double.NaN,
                        List.of(new StageCost("detect", 200, 1000, 10), new StageCost("generate", 500, 3000, 190))));
        Map<String, Percentiles> lat = StageLatency.of(outcomes);
        assertThat(lat.keySet()).containsExactly("detect", "generate", "total");
        assertThat(lat.get("generate").p50()).isEqualTo(300);
        assertThat(lat.get("total").max()).isEqualTo(700);
        TokenCost cost = TokenCost.of(outcomes, 0.5, 2.0);
        assertThat(cost.promptTokens()).isEqualTo(7000);
        assertThat(cost.completionTokens()).isEqualTo(300);
        // 7000/1e6*0.5 + 300/1e6*2 = 0.0035 + 0.0006
        assertThat(cost.cost()).isCloseTo(0.0041, within(1e-12));
        assertThat(cost.tokensPerQuestion()).isEqualTo(3650.0);
    }
}
