package io.flowsql.benchmarks.eval.rqs;

import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.semantics.MmsqlAccsExec;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.sql.ExecutionResult;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Runs the RQS judge over a scored dialogue benchmark: one call per turn of a non-SQL type whose type was predicted right. */
public final class RqsRun {
    private RqsRun() {}

    /**
     * @param replies the gold system replies by turn id (the judge's reference)
     */
    public static RqsScores score(String judgeUrl, String model, String apiKey, Benchmark bench, List<Prediction> predictions,
                                  Map<String, String> replies, List<ItemOutcome> outcomes, DataDoors doors) {
        Map<String, Prediction> byKey = new HashMap<>();
        predictions.stream().filter(p -> p.key() != null).forEach(p -> byKey.put(p.key(), p));
        Map<String, String> schemas = new HashMap<>();
        LlmClientConfig config = LlmClientConfig.builder(judgeUrl).apiKey(apiKey).defaultModel(model).build();
        try (LlmClient client = OpenAiCompatibleClient.builder(config).build()) {
            RqsJudge judge = new RqsJudge(client, model, 300);
            return RqsScores.of(outcomes, o -> {
                Prediction p = byKey.get(o.item().id());
                String schema = schemas.computeIfAbsent(o.item().dbId(), db -> schemaOf(doors, db));
                return judge.judge(o.item().dbId(), schema, o.item().question(), MmsqlAccsExec.goldType(o.item()),
                        p == null ? "" : p.reply(), replies.getOrDefault(o.item().id(), ""));
            }, model);
        }
    }

    /** The CREATE TABLE statements of a database, as the judge's view of its schema. */
    static String schemaOf(DataDoors doors, String dbId) {
        ExecutionResult r = doors.operator(dbId).execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL");
        if (!r.ok()) {
            return "(schema unavailable: " + r.error() + ")";
        }
        return r.rows().stream().map(row -> String.valueOf(row.get(0)).strip()).collect(Collectors.joining("\n"));
    }
}
