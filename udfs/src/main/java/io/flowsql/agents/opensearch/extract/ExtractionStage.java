package io.flowsql.agents.opensearch.extract;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code opensearch.extract}: OpenSearch-SQL's extraction step, two model calls in parallel. {@code opensearch.extract}
 * names the question's entities, the columns the query needs and the values it compares with; columns the schema
 * does not have are dropped (spelled as the schema spells them). {@code opensearch.extract.order} reads the question
 * alone and lists what the answer returns, in order (the SELECT-order fix). Both land in the notes
 * ({@link Extraction}); {@code opensearch.retrieve} adds embedding hits, {@code opensearch.generate} shows all of it and
 * {@code opensearch.adherence} checks the samples against it. A failed order call leaves the order empty (the
 * original retries it three times and then goes on without one); a failed extraction call fails the stage.
 */
public final class ExtractionStage implements Stage {
    private final AgentCall call;
    private final SchemaContext schemas;
    private final PromptPair extract = PromptPair.load("opensearch/extract");
    private final PromptPair order = PromptPair.load("opensearch/extract_order");

    public ExtractionStage(AgentCall call, SchemaContext schemas) {
        this.call = call;
        this.schemas = schemas;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        PromptFields fields = schemas.promptFields(ctx);
        CompletableFuture<JsonNode> extracted = call.ask(extract.request(fields), ExtractionStage::parseExtraction, trace);
        CompletableFuture<List<String>> ordered = call.ask(order.request(fields), ExtractionStage::parseOrder, trace)
                .exceptionally(failed -> List.of());
        return extracted.thenCombine(ordered, (json, select) -> {
            DatabaseSchema schema = schemas.schema(ctx);
            List<String> columns = new ArrayList<>();
            for (String name : Extraction.strings(json, "columns")) {
                known(schema, name).filter(c -> !columns.contains(c)).ifPresent(columns::add);
            }
            List<String> values = Extraction.strings(json, "values");
            synchronized (ctx) {
                Extraction.put(ctx, Extraction.ENTITIES, Extraction.strings(json, "entities"));
                Extraction.put(ctx, Extraction.COLUMNS, columns);
                Extraction.put(ctx, Extraction.VALUES, values);
                Extraction.put(ctx, Extraction.SELECT, select);
            }
            trace.note = columns.size() + " columns, " + values.size() + " values, select order "
                    + (select.isEmpty() ? "unknown" : String.join("; ", select));
            return null;
        });
    }

    static Optional<JsonNode> parseExtraction(String text) {
        return ModelOutput.json(text).filter(j -> j.isObject() && j.path("columns").isArray());
    }

    static Optional<List<String>> parseOrder(String text) {
        return ModelOutput.json(text).filter(j -> j.path("select").isArray())
                .map(j -> Extraction.strings(j, "select")).filter(list -> !list.isEmpty());
    }

    /** {@code table.column} as the schema spells it, when the schema has it (quotes and case ignored). */
    public static Optional<String> known(DatabaseSchema schema, String name) {
        String bare = name.replaceAll("[\"`\\[\\]]", "").strip().toLowerCase(Locale.ROOT);
        int dot = bare.lastIndexOf('.');
        String table = dot < 0 ? null : bare.substring(0, dot).strip();
        String column = bare.substring(dot + 1).strip();
        for (TableSchema t : schema.tables()) {
            if (table != null && !t.name().equalsIgnoreCase(table)) {
                continue;
            }
            for (ColumnSchema c : t.columns()) {
                if (c.name().equalsIgnoreCase(column)) {
                    return Optional.of(t.name() + "." + c.name());
                }
            }
        }
        return Optional.empty();
    }
}
