package io.flowsql.agents.opensearch.align.model;

import io.flowsql.access.DataDoor;
import java.util.Optional;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.agents.opensearch.align.model.AgentChecks.KnownValue;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.retrieval.VectorIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * OpenSearch-SQL's alignment as its authors run it ({@code align_correct}, {@code align_methods =
 * style_align+function_align+agent_align}): three steps in that order, each a set of checks on the candidate's text
 * ({@link StyleChecks}, {@link FunctionChecks}, {@link AgentChecks}) with a few fixed rewrites, and one model call
 * with the step's own prompt ({@code prompts/opensearch/align_<step>}) listing what the checks found, only when they
 * found something. The model's SQL replaces the candidate's; an answer that cannot be read (after the call's one
 * re-ask) or a failed call keeps it. The agent step embeds the literals the candidate uses that are not among the
 * question's retrieved values, with those values ({@code /v1/embeddings}, use {@code opensearch.align.values}), to
 * take a near-identical database value (cosine above 0.95) without a call.
 */
public final class ModelAligner {
    /** The embedding use of the agent step's value comparison (its model: {@code llm.embedding-model.opensearch.align.values}). */
    public static final String VALUES_USE = "opensearch.align.values";

    /** The steps' prompts, in the order the steps run (style, function, agent). */
    public static final List<String> PROMPTS = List.of("opensearch/align_style", "opensearch/align_function",
            "opensearch/align_agent");

    private final AgentCall call;
    private final PromptPair style = PromptPair.load(PROMPTS.get(0));
    private final PromptPair function = PromptPair.load(PROMPTS.get(1));
    private final PromptPair agent = PromptPair.load(PROMPTS.get(2));

    public ModelAligner(AgentCall call) {
        this.call = call;
    }

    /**
     * @param door   the question's door: the agent step's value embeddings are those its room holds (none: literals
     *               are compared with the values by text only)
     * @param fields the shared prompt fields plus {@code values} (the retrieved values as text)
     * @param tables the database's table names
     * @param known  the retrieved values
     */
    public CompletableFuture<ConsistencyAligner.Aligned> align(DataDoor door, PromptFields fields, String sql,
                                                               Set<String> tables, List<KnownValue> known,
                                                               StageTrace trace) {
        Optional<EmbeddingRetriever.Shown> embeddings = door.learned(EmbeddingRetriever.class);
        List<String> applied = new ArrayList<>();
        // a step after a model reply checks on the stage's work pool, not on the LLM client's callback thread
        return step("style", style, StyleChecks.check(sql), fields, applied, trace)
                .thenCompose(afterStyle -> StageSql.offload(trace, () ->
                        step("function", function, FunctionChecks.check(afterStyle), fields, applied, trace)))
                .thenCompose(afterFunction -> nearest(embeddings, afterFunction, tables, known, trace).thenCompose(near ->
                        StageSql.offload(trace, () -> step("agent", agent, AgentChecks.check(afterFunction, tables, known,
                                near), fields, applied, trace))))
                .thenApply(done -> new ConsistencyAligner.Aligned(done, applied));
    }

    private CompletableFuture<String> step(String name, PromptPair prompt, AlignFindings found, PromptFields fields,
                                           List<String> applied, StageTrace trace) {
        found.rewrites().forEach(r -> applied.add(name + ":" + r));
        if (!found.asksTheModel()) {
            return CompletableFuture.completedFuture(found.sql());
        }
        PromptFields vars = fields.with("sql", found.sql()).with("problems", "- " + String.join("\n- ", found.problems()));
        return call.ask(prompt.request(vars), ModelOutput::sql, trace).handle((revised, failed) -> {
            if (failed != null || revised == null || SqlText.oneLine(revised).equals(found.sql())) {
                return found.sql();
            }
            synchronized (applied) {
                applied.add(name + ":model");
            }
            return SqlText.oneLine(revised);
        });
    }

    /** For each literal not among {@code known}, the known value whose embedding is within {@link AgentChecks#SAME_VALUE}. */
    private static CompletableFuture<Map<String, String>> nearest(Optional<EmbeddingRetriever.Shown> embeddings, String sql, Set<String> tables, List<KnownValue> known,
                                                           StageTrace trace) {
        List<String> unknown = AgentChecks.unknownLiterals(sql, tables, known);
        List<String> values = known.stream().map(KnownValue::value).distinct().toList();
        if (embeddings.isEmpty() || unknown.isEmpty() || values.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        List<String> texts = new ArrayList<>(unknown);
        texts.addAll(values);
        return embeddings.get().embed(VALUES_USE, texts, trace).thenApply(vectors -> {
            Map<String, String> out = new HashMap<>();
            for (int i = 0; i < unknown.size(); i++) {
                double best = AgentChecks.SAME_VALUE;
                for (int j = 0; j < values.size(); j++) {
                    double cosine = VectorIndex.cosine(vectors.get(i), vectors.get(unknown.size() + j));
                    if (cosine > best) {
                        best = cosine;
                        out.put(unknown.get(i), values.get(j));
                    }
                }
            }
            return out;
        }).exceptionally(failed -> Map.of());
    }
}
