package io.flowsql.benchmarks.eval.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.benchmarks.eval.metrics.Accuracy;

import java.util.Map;

/** Renders a summary as JSON for machines (dashboards, regression checks); percentages are 0..100. */
public final class JsonReport {
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public String render(EvaluationSummary s) {
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", s.benchmark());
        root.put("predictions", s.predictions());
        root.put("semantics", s.comparison());
        root.put("semantics_description", s.semanticsDescription());
        root.put("headline", Headline.of(s));
        if (s.simulation() != null && s.simulation().answers() > 0) {
            root.put("simulated_answers", s.simulation().simulated());
            root.put("answers_read", s.simulation().answers());
            root.put("simulated_mode", s.simulation().simulated() > 0 ? s.simulation().mode() : null);
        }
        if (s.protocol() != null) {
            root.put("protocol", s.protocol());
        }
        root.put("question_count", s.questions());
        root.put("runnable", s.runnable());
        root.put("scored", s.runnable() - s.goldErrors().size());
        root.put("without_database", s.withoutDatabase());
        root.put("missing_predictions", s.missingPredictions());
        root.set("ex", accuracy(s.ex()));
        root.set("ex_by_difficulty", table(s.exByDifficulty()));
        if (s.measuredEfficiency()) {
            root.put("ves", s.ves());
            root.put("rves", s.rves());
        }
        ArrayNode gold = root.putArray("gold_errors");
        s.goldErrors().forEach(g -> gold.addObject().put("item", g.itemId()).put("db_id", g.dbId()).put("error", g.error()));
        if (s.dialogues()) {
            root.set("tdex", accuracy(s.tdex()));
            root.set("tdex_by_type", table(s.tdexByType()));
            root.set("iex", accuracy(s.iex()));
            ObjectNode types = root.putObject("type_detection");
            s.typeDetection().forEach((t, p) -> types.putObject(t).put("precision", p.precision()).put("recall", p.recall())
                    .put("f1", p.f1()).put("support", p.support()));
        }
        if (s.mmsql() != null) {
            ObjectNode m = root.putObject("mmsql");
            m.set("tdex", accuracy(s.mmsql().tdex()));
            m.set("ex", accuracy(s.mmsql().ex()));
            m.set("iex", accuracy(s.mmsql().iex()));
            m.put("average_type_f1", s.mmsql().averageF1());
            ObjectNode types = m.putObject("types");
            s.mmsql().types().forEach((t, p) -> types.putObject(t).put("precision", p.precision()).put("recall", p.recall())
                    .put("f1", p.f1()).put("support", p.support()));
        }
        if (s.rqs() != null) {
            ObjectNode r = root.putObject("rqs").put("overall", s.rqs().overall()).put("judge_model", s.rqs().judgeModel())
                    .put("judged", s.rqs().judged()).put("judge_errors", s.rqs().errors());
            ObjectNode types = r.putObject("by_type");
            s.rqs().byType().forEach((t, v) -> types.putObject(t).put("average", v).put("turns", s.rqs().turns().get(t)));
        }
        ObjectNode latency = root.putObject("latency_ms");
        s.latencyByStage().forEach((stage, p) -> latency.putObject(stage).put("count", p.count()).put("mean", p.mean())
                .put("p50", p.p50()).put("p90", p.p90()).put("p95", p.p95()).put("p99", p.p99()).put("max", p.max()));
        root.putObject("tokens").put("prompt", s.tokens().promptTokens()).put("completion", s.tokens().completionTokens())
                .put("per_question", s.tokens().tokensPerQuestion()).put("cost", s.tokens().cost())
                .put("cost_per_question", s.tokens().costPerQuestion())
                .put("price_per_million_prompt", s.tokens().pricePerMillionPrompt())
                .put("price_per_million_completion", s.tokens().pricePerMillionCompletion());
        ArrayNode questions = root.putArray("questions");
        for (QuestionVerdict v : s.verdicts()) {
            ObjectNode q = questions.addObject().put("id", v.id()).put("db_id", v.dbId()).put("difficulty", v.difficulty());
            if (v.type() != null) {
                q.put("type", v.type()).put("predicted_type", v.predictedType());
            }
            q.put("verdict", v.verdict()).put("gold", v.gold()).put("prediction", v.prediction()).put("error", v.error());
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private ObjectNode accuracy(Accuracy a) {
        return mapper.createObjectNode().put("correct", a.correct()).put("total", a.total()).put("percent", a.percent());
    }

    private ObjectNode table(Map<String, Accuracy> t) {
        ObjectNode node = mapper.createObjectNode();
        t.forEach((k, a) -> node.set(k, accuracy(a)));
        return node;
    }
}
