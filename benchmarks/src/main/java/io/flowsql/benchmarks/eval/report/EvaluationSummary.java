package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.DialogueMetrics;
import io.flowsql.benchmarks.eval.metrics.ExecutionAccuracy;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.MmsqlAccsMetrics;
import io.flowsql.benchmarks.eval.rqs.RqsScores;
import io.flowsql.benchmarks.eval.semantics.MmsqlAccsExec;
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
 * @param comparison the id of the semantics EX was computed with (named in every report)
 * @param semanticsDescription whose rules those are, in one line
 * @param ves        NaN when efficiency was not measured
 * @param mmsql      MMSQL's own figures when scored with its semantics, else null
 * @param verdicts   one verdict per scored question, in benchmark order
 * @param protocol   how the answers were produced (run: the dialogue history protocol), or null for a scored file
 * @param rqs        MMSQL's response-quality score from an LLM judge, or null when no judge was asked
 * @param simulation how many answers came from the simulated LLM (read from an answers file; NONE for other formats)
 */
public record EvaluationSummary(
        String benchmark,
        String predictions,
        String comparison,
        String semanticsDescription,
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
        List<Integer> tokensPerQuestion,
        MmsqlAccsMetrics mmsql,
        List<QuestionVerdict> verdicts,
        String protocol,
        RqsScores rqs,
        SimulatedAnswers simulation) {

    /** A gold query that failed to run: reported apart, never counted against a prediction. */
    public record GoldError(String itemId, String dbId, String error) {}

    public static EvaluationSummary of(Benchmark benchmark, String predictions, String comparison, List<ItemOutcome> outcomes,
                                       double pricePerMillionPrompt, double pricePerMillionCompletion) {
        return of(benchmark, predictions, comparison, comparison, outcomes, pricePerMillionPrompt, pricePerMillionCompletion);
    }

    public static EvaluationSummary of(Benchmark benchmark, String predictions, String comparison, String semanticsDescription,
                                       List<ItemOutcome> outcomes, double pricePerMillionPrompt, double pricePerMillionCompletion) {
        boolean dialogues = outcomes.stream().anyMatch(o -> o.item().questionType() != null);
        int missing = (int) outcomes.stream().filter(o -> "no prediction".equals(o.predError())).count();
        List<GoldError> goldErrors = outcomes.stream().filter(o -> !o.scorable())
                .map(o -> new GoldError(o.item().id(), o.item().dbId(), o.goldError())).toList();
        MmsqlAccsMetrics mmsql = MmsqlAccsExec.isMmsql(comparison) ? MmsqlAccsMetrics.of(outcomes) : null;
        return new EvaluationSummary(benchmark.name(), predictions, comparison, semanticsDescription, benchmark.items().size(),
                outcomes.size(), missing,
                ExecutionAccuracy.overall(outcomes), ExecutionAccuracy.byDifficulty(outcomes),
                ValidEfficiency.ves(outcomes), ValidEfficiency.rves(outcomes), goldErrors, dialogues,
                DialogueMetrics.tdex(outcomes), DialogueMetrics.tdexByType(outcomes), DialogueMetrics.iex(outcomes),
                DialogueMetrics.typeDetection(outcomes), StageLatency.of(outcomes),
                TokenCost.of(outcomes, pricePerMillionPrompt, pricePerMillionCompletion),
                outcomes.stream().map(o -> o.promptTokens() + o.completionTokens()).toList(), mmsql,
                outcomes.stream().map(QuestionVerdict::of).toList(), null, null, SimulatedAnswers.NONE);
    }

    public boolean measuredEfficiency() {
        return !Double.isNaN(ves);
    }

    /** The same figures, saying how the answers were produced. */
    public EvaluationSummary withProtocol(String how) {
        return new EvaluationSummary(benchmark, predictions, comparison, semanticsDescription, questions, runnable,
                missingPredictions, ex, exByDifficulty, ves, rves, goldErrors, dialogues, tdex, tdexByType, iex, typeDetection,
                latencyByStage, tokens, tokensPerQuestion, mmsql, verdicts, how, rqs, simulation);
    }

    /** The same figures with the RQS judge's scores. */
    public EvaluationSummary withRqs(RqsScores scores) {
        return new EvaluationSummary(benchmark, predictions, comparison, semanticsDescription, questions, runnable,
                missingPredictions, ex, exByDifficulty, ves, rves, goldErrors, dialogues, tdex, tdexByType, iex, typeDetection,
                latencyByStage, tokens, tokensPerQuestion, mmsql, verdicts, protocol, scores, simulation);
    }

    /** The same figures, saying how many answers the simulated LLM gave. */
    public EvaluationSummary withSimulation(SimulatedAnswers counted) {
        return new EvaluationSummary(benchmark, predictions, comparison, semanticsDescription, questions, runnable,
                missingPredictions, ex, exByDifficulty, ves, rves, goldErrors, dialogues, tdex, tdexByType, iex, typeDetection,
                latencyByStage, tokens, tokensPerQuestion, mmsql, verdicts, protocol, rqs, counted);
    }

    /** Questions left out because their database is not here. */
    public int withoutDatabase() {
        return questions - runnable;
    }

    /** Whether any answer carried token counts. */
    public boolean hasTokens() {
        return tokens.promptTokens() + tokens.completionTokens() > 0;
    }

    public boolean hasPrices() {
        return tokens.pricePerMillionPrompt() > 0 || tokens.pricePerMillionCompletion() > 0;
    }

    public boolean hasTrace() {
        return !latencyByStage.isEmpty();
    }
}
