package io.flowsql.agents.magsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MAG-SQL §3.1 (Soft Schema Linker): one summary per table, written by the model once per database and
 * cached, because summaries depend only on the schema.
 */
public final class TableSummarizer {
    public static final String STEP = "magsql.link.summarize";

    private final AgentCall call;
    private final PromptPair prompt = PromptPair.load("magsql/summarize");
    private final Map<String, CompletableFuture<Map<String, String>>> cache = new ConcurrentHashMap<>();

    public TableSummarizer(AgentCall call) {
        this.call = call;
    }

    /** The summaries of every table of a SQLite database (from the cache after the first call that succeeds). */
    public CompletableFuture<Map<String, String>> summarize(DatabaseSchema schema, String schemaText, StageTrace trace) {
        return summarize(schema, schemaText, DatabaseEngine.embedded(), trace);
    }

    /** The summaries of every table of the database, whose prompt names its engine. */
    public CompletableFuture<Map<String, String>> summarize(DatabaseSchema schema, String schemaText, DatabaseEngine engine,
            StageTrace trace) {
        CompletableFuture<Map<String, String>> summaries = cache.computeIfAbsent(schema.dbId(), id -> {
            ChatRequest request = ChatRequest.of(STEP, prompt.render(PromptFields.none()
                    .with("db_id", id).with("schema", schemaText).withEngine(engine))).withReply(prompt.reply().withStringProperties("",
                            schema.tables().stream().map(TableSchema::name).toList(), 200));
            // shared by every request of the database: one request's stage timeout must not cancel it for the others
            Cancellation own = trace == null ? null : trace.cancellation;
            if (trace != null) {
                trace.cancellation = null;
            }
            try {
                return call.ask(request, text -> parse(text, schema), trace);
            } finally {
                if (trace != null) {
                    trace.cancellation = own;
                }
            }
        });
        return summaries.whenComplete((ok, error) -> {
            if (error != null) {
                cache.remove(schema.dbId(), summaries);
            }
        });
    }

    /** The summaries of known tables, in schema order; unparseable when no table of the schema is summarised. */
    static Optional<Map<String, String>> parse(String text, DatabaseSchema schema) {
        Optional<JsonNode> json = ModelOutput.json(text).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> summaries = new LinkedHashMap<>();
        for (TableSchema table : schema.tables()) {
            json.get().properties().forEach(e -> {
                if (e.getKey().equalsIgnoreCase(table.name()) && e.getValue().isTextual()) {
                    summaries.put(table.name(), e.getValue().asText().strip());
                }
            });
        }
        return summaries.isEmpty() ? Optional.empty() : Optional.of(summaries);
    }
}
