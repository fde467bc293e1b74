package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.DialogueMetrics;
import io.flowsql.benchmarks.eval.metrics.ExecutionAccuracy;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.Percentiles;
import io.flowsql.benchmarks.eval.metrics.PrecisionRecall;
import io.flowsql.benchmarks.eval.metrics.StageLatency;
import io.flowsql.benchmarks.eval.metrics.TokenCost;
import io.flowsql.benchmarks.eval.metrics.ValidEfficiency;

import java.util.List;
import java.util.Map;

/**
 * Every figure of one evaluation, computed once from the per-question outcomes, so the Markdown, HTML and
 * JSON reports show the same numbers.
 *
 * @param comparison the comparison semantics EX was computed with (named in every report)
 * @param ves        NaN when efficiency was not measured
 */
public record EvaluationSummary(
        String benchmark,
        String predictions,
        String comparison,
        int questions,
        int runnable,
        int missingPredictions,
        Accuracy ex,
        Map<String, Accuracy> exByDifficulty,
        double ves,
        double rves,
        List<GoldError> goldErrors,
        boolean dialogues,
        Accuracy tdex,
        Map<String, Accuracy> tdexByType,
        Accuracy iex,
        Map<String, PrecisionRecall> typeDetection,
        Map<String, Percentiles> latencyByStage,
        TokenCost tokens,
        List<Integer> tokensPerQuestion) {

    /** A gold query that failed to run: reported apart, never counted against a prediction. */
    public record GoldError(String itemId, String dbId, String error) {}

    public static EvaluationSummary of(Benchmark benchmark, String predictions, String comparison, List<ItemOutcome> outcomes,
                                       double pricePerMillionPrompt, double pricePerMillionCompletion) {
        boolean dialogues = outcomes.stream().anyMatch(o -> o.item().questionType() != null);
        int missing = (int) outcomes.stream().filter(o -> "no prediction".equals(o.predError())).count();
        List<GoldError> goldErrors = outcomes.stream().filter(o -> !o.scorable())
                .map(o -> new GoldError(o.item().id(), o.item().dbId(), o.goldError())).toList();
        return new EvaluationSummary(benchmark.name(), predictions, comparison, benchmark.items().size(), outcomes.size(), missing,
                ExecutionAccuracy.overall(outcomes), ExecutionAccuracy.byDifficulty(outcomes),
                ValidEfficiency.ves(outcomes), ValidEfficiency.rves(outcomes), goldErrors, dialogues,
                DialogueMetrics.tdex(outcomes), DialogueMetrics.tdexByType(outcomes), DialogueMetrics.iex(outcomes),
                DialogueMetrics.typeDetection(outcomes), StageLatency.of(outcomes),
                TokenCost.of(outcomes, pricePerMillionPrompt, pricePerMillionCompletion),
                outcomes.stream().map(o -> o.promptTokens() + o.completionTokens()).toList());
    }

    public boolean measuredEfficiency() {
        return !Double.isNaN(ves);
    }

    public boolean hasTrace() {
        return !latencyByStage.isEmpty();
    }
}
