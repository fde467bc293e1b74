package io.flowsql.agents.magsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL §3.1 entity-based schema linking: the model names the question's entities and ranks at least
 * k columns for each; columns the schema does not have are dropped, and an answer that ranks fewer than k
 * per entity is treated as unreadable and re-asked.
 */
public final class EntitySchemaLinker {
    private final AgentCall call;
    private final int columnsPerEntity;
    private final PromptPair prompt = PromptPair.load("magsql/link");

    public EntitySchemaLinker(AgentCall call, int columnsPerEntity) {
        this.call = call;
        this.columnsPerEntity = columnsPerEntity;
    }

    /**
     * @param fields the shared prompt fields (db_id, question, evidence, history, schema) plus
     *               {@code values} and {@code summaries}
     */
    public CompletableFuture<List<EntityLink>> link(PromptFields fields, DatabaseSchema schema, StageTrace trace) {
        PromptFields vars = fields.with("columns_per_entity", columnsPerEntity);
        ChatRequest request = prompt.request(vars).withReply(prompt.reply()
                .withEnum(COLUMN_ITEM, schema.tables().stream()
                        .flatMap(t -> t.columns().stream().map(c -> t.name() + "." + c.name())).toList())
                .withNumber(COLUMNS, "minItems", Math.min(columnsPerEntity, schema.columnCount()))
                .withNumber(COLUMNS, "maxItems", Math.max(5, Math.min(columnsPerEntity, schema.columnCount()))));
        int required = Math.min(columnsPerEntity, schema.columnCount());
        return call.ask(request, text -> parse(text, schema, required), trace);
    }

    private static final String COLUMNS = "/properties/entities/items/properties/columns";
    private static final String COLUMN_ITEM = COLUMNS + "/items";

    static Optional<List<EntityLink>> parse(String text, DatabaseSchema schema, int required) {
        Optional<JsonNode> json = ModelOutput.json(text);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JsonNode entities = json.get().isArray() ? json.get() : json.get().path("entities");
        if (!entities.isArray() || entities.isEmpty()) {
            return Optional.empty();
        }
        List<EntityLink> links = new ArrayList<>();
        for (JsonNode entity : entities) {
            JsonNode columns = entity.path("columns");
            if (!entity.path("entity").isTextual() || !columns.isArray() || columns.size() < required) {
                return Optional.empty();
            }
            List<ColumnRef> known = new ArrayList<>();
            for (JsonNode column : columns) {
                resolve(column.asText(), schema).filter(c -> !known.contains(c)).ifPresent(known::add);
            }
            if (!known.isEmpty()) {
                links.add(new EntityLink(entity.path("entity").asText(), known));
            }
        }
        return links.isEmpty() ? Optional.empty() : Optional.of(links);
    }

    /**
     * "table.column" (quotes and backticks allowed) to the schema's column with its original spelling; the table may be
     * schema-qualified ("ns.table.column", a warehouse's tables), so the column is what follows the last dot.
     */
    static Optional<ColumnRef> resolve(String name, DatabaseSchema schema) {
        String cleaned = name.replace("`", "").replace("\"", "").strip();
        int dot = cleaned.lastIndexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String table = cleaned.substring(0, dot).strip();
        String column = cleaned.substring(dot + 1).strip();
        Optional<TableSchema> found = schema.table(table);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        return found.get().columns().stream()
                .filter(c -> c.name().equalsIgnoreCase(column))
                .map(ColumnSchema::ref)
                .findFirst();
    }
}
