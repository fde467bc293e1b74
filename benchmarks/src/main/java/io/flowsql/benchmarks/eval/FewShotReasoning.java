package io.flowsql.benchmarks.eval;

import io.flowsql.access.DataDoors;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmClient;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Writes the reasoning step of OpenSearch-SQL's few-shot examples (the authors' {@code prepare_train_queries}: a model
 * is shown a question and its gold SQL and writes #reason, #columns, #values, #SELECT and #SQL-like): one call per
 * example with {@code prompts/eval/fewshot_reasoning}, at temperature 0. The example records the model that wrote it and
 * whether the answer came from the project's simulator (then it is a text made from the SQL by rules, marked so in
 * the library). An example whose call fails or cannot be read keeps no reasoning.
 */
public final class FewShotReasoning {
    /** The sections kept, in order. */
    static final List<String> TAGS = List.of("reason", "columns", "values", "SELECT", "SQL-like");

    private final AgentCall call;
    private final String model;
    private final PromptPair prompt = PromptPair.load("eval/fewshot_reasoning");

    public FewShotReasoning(LlmClient llm, String model) {
        this.call = new AgentCall(llm);
        this.model = model;
    }

    /** What the library got: the examples (in order) and how many have a reasoning. */
    public record Written(List<FewShotExample> examples, int reasoned, int simulated) {}

    /** @param doors the schemas, each read through the operator's door of its database */
    public Written write(List<FewShotExample> examples, DataDoors doors) {
        Map<String, String> schemas = new LinkedHashMap<>();
        List<CompletableFuture<FewShotExample>> work = new ArrayList<>();
        for (FewShotExample e : examples) {
            String schema = schemas.computeIfAbsent(e.dbId(), db -> schemaText(doors.operator(db).schema()));
            PromptFields fields = PromptFields.shared(e.dbId(), e.question(), "(none)", "(none)", schema).with("sql", e.sql());
            ChatRequest request = prompt.request(fields).withModel(model).withSampling(0.0, 1);
            StageTrace trace = new StageTrace(prompt.task());
            work.add(call.ask(request, FewShotReasoning::parse, trace)
                    .thenApply(text -> e.withReasoning(text, trace.model == null ? model : trace.model, trace.simulated))
                    .exceptionally(failed -> e));
        }
        List<FewShotExample> out = work.stream().map(CompletableFuture::join).toList();
        int reasoned = (int) out.stream().filter(e -> e.reasoning() != null).count();
        int simulated = (int) out.stream().filter(e -> Boolean.TRUE.equals(e.reasoningSimulated())).count();
        return new Written(out, reasoned, simulated);
    }

    /** The reasoning sections in order as {@code #tag: text} lines; empty without a {@code #reason} section. */
    static Optional<String> parse(String text) {
        Map<String, String> sections = ModelOutput.tagged(text, TAGS);
        String reason = sections.get("reason");
        if (reason == null || reason.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(TAGS.stream().filter(t -> sections.get(t) != null && !sections.get(t).isBlank())
                .map(t -> "#" + t + ": " + sections.get(t).strip().replaceAll("\\s+", " "))
                .collect(Collectors.joining("\n")));
    }

    /** The schema as {@code table(column type, …)} lines. */
    static String schemaText(DatabaseSchema schema) {
        StringBuilder out = new StringBuilder();
        for (TableSchema t : schema.tables()) {
            out.append(t.name()).append('(').append(t.columns().stream().map(ColumnSchema::name)
                    .collect(Collectors.joining(", "))).append(")\n");
        }
        return out.toString().strip();
    }
}
