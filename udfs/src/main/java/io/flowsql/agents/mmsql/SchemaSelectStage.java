package io.flowsql.agents.mmsql;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code mmsql.select}: MMSQL's schema selector. The model names the tables ({@code table.*}) and columns the
 * question needs; the stage keeps those that exist, adds the kept tables' primary keys and the foreign-key
 * columns between kept tables (so joins stay possible), and shows the rest of the pipeline only that part of
 * the schema ({@code ctx.schemaText}). Names that exist nowhere are dropped; when nothing valid is left the full
 * schema stays. {@code notes["mmsql.selected"]} lists the kept tables. As the paper uses its selector for large
 * schemas only, a schema of at most {@code selectAboveColumns} columns is shown whole without a model call.
 */
public final class SchemaSelectStage implements Stage {
    public static final String NOTE = "mmsql.selected";

    private final AgentCall call;
    private final SchemaContext schemas;
    private final MmsqlRules rules;
    private final PromptPair prompt = PromptPair.load("mmsql/select");
    private final int selectAboveColumns;

    public SchemaSelectStage(AgentCall call, SchemaContext schemas) {
        this(call, schemas, MmsqlRules.from(io.flowsql.agents.common.AgentSettings.defaults()));
    }

    /** @param rules whether the model selects ({@link MmsqlRules#selectByModel()}), else the official code's full schema with example rows */
    public SchemaSelectStage(AgentCall call, SchemaContext schemas, MmsqlRules rules) {
        this(call, schemas, rules, 0);
    }

    /** @param selectAboveColumns schemas with at most this many columns are shown whole, no call (0: always select) */
    public SchemaSelectStage(AgentCall call, SchemaContext schemas, MmsqlRules rules, int selectAboveColumns) {
        this.call = call;
        this.schemas = schemas;
        this.rules = rules;
        this.selectAboveColumns = selectAboveColumns;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        if (!rules.forRequest(ctx).selectByModel()) {
            // the official code: no selection, the full schema with three example rows per table (SQL: off the task thread)
            return StageSql.offload(trace, () -> {
                ctx.schemaText = schemas.views().withExampleRows(schemas.schema(ctx), MmsqlRules.EXAMPLE_ROWS);
                trace.note = "full schema with " + MmsqlRules.EXAMPLE_ROWS + " example rows per table (the official code)";
                return CompletableFuture.completedFuture(null);
            });
        }
        int columns = schemas.schema(ctx).columnCount();
        if (columns <= selectAboveColumns) {
            trace.note = "schema of " + columns + " columns (at most " + selectAboveColumns + "): shown whole, no selection";
            return CompletableFuture.completedFuture(null);
        }
        return call.ask(prompt.request(MmsqlFields.of(ctx, schemas)),
                SchemaSelectStage::parse, trace).thenAccept(keep -> {
            DatabaseSchema full = schemas.schema(ctx);
            Optional<DatabaseSchema> selected = select(full, keep);
            if (selected.isEmpty()) {
                trace.note = "nothing valid selected: full schema kept";
                return;
            }
            ctx.schemaText = schemas.views().full(selected.get());
            String tables = String.join(",", selected.get().tables().stream().map(TableSchema::name).toList());
            ctx.notes.put(NOTE, tables);
            trace.note = selected.get().tables().size() + "/" + full.tables().size() + " tables, "
                    + selected.get().columnCount() + "/" + full.columnCount() + " columns: " + tables;
        });
    }

    static Optional<List<String>> parse(String text) {
        return ModelOutput.json(text).map(j -> j.path("keep")).filter(JsonNode::isArray).map(array -> {
            List<String> out = new ArrayList<>();
            array.forEach(n -> out.add(n.asText().strip()));
            return out;
        }).filter(list -> !list.isEmpty());
    }

    /** The part of the schema the names select, with keys added; empty when no name exists. */
    static Optional<DatabaseSchema> select(DatabaseSchema schema, List<String> keep) {
        Map<String, Set<String>> columns = new LinkedHashMap<>();
        for (String name : keep) {
            int dot = name.lastIndexOf('.');
            String table = dot < 0 ? name : name.substring(0, dot);
            String column = dot < 0 ? "*" : name.substring(dot + 1);
            schema.tables().stream().filter(t -> t.name().equalsIgnoreCase(strip(table))).findFirst().ifPresent(t -> {
                Set<String> kept = columns.computeIfAbsent(t.name(), k -> new LinkedHashSet<>());
                t.columns().stream().filter(c -> column.equals("*") || c.name().equalsIgnoreCase(strip(column)))
                        .forEach(c -> kept.add(c.name()));
            });
        }
        columns.values().removeIf(Set::isEmpty);
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        for (TableSchema t : schema.tables()) {
            if (columns.containsKey(t.name())) {
                columns.get(t.name()).addAll(t.primaryKey());
            }
        }
        List<ForeignKey> keys = schema.foreignKeys().stream()
                .filter(fk -> columns.containsKey(fk.from().table()) && columns.containsKey(fk.to().table())).toList();
        keys.forEach(fk -> {
            columns.get(fk.from().table()).add(fk.from().column());
            columns.get(fk.to().table()).add(fk.to().column());
        });
        List<TableSchema> tables = new ArrayList<>();
        for (TableSchema t : schema.tables()) {
            Set<String> kept = columns.get(t.name());
            if (kept != null) {
                List<ColumnSchema> cols = t.columns().stream().filter(c -> kept.contains(c.name())).toList();
                tables.add(new TableSchema(t.name(), t.description(), cols, t.primaryKey()));
            }
        }
        return Optional.of(new DatabaseSchema(schema.dbId(), tables, keys));
    }

    private static String strip(String name) {
        return name.replaceAll("[\"`\\[\\]]", "").strip().toLowerCase(Locale.ROOT);
    }
}
