package io.flowsql.agents.magsql;

import io.flowsql.agents.common.EngineDialectText;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueMatch;
import io.flowsql.access.DataDoor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * MAG-SQL §3.1 Soft Schema Linker end to end: value retrieval, table summaries, entity-based linking and
 * the soft schema built around the linked columns; small schemas are shown whole and skip the model.
 */
public final class SoftSchemaLinker {
    private final TableSummarizer summarizer;
    private final EntitySchemaLinker linker;
    private final SchemaViews views;
    private final int skipThresholdColumns;
    private final int skipAvgColumns;
    private final int valueMatches;

    /**
     * @param skipThresholdColumns schemas with at most this many columns in all ...
     * @param skipAvgColumns ... and at most this many per table on average (integer division) are shown whole
     */
    public SoftSchemaLinker(TableSummarizer summarizer, EntitySchemaLinker linker, SchemaViews views, int skipThresholdColumns, int skipAvgColumns, int valueMatches) {
        this.summarizer = summarizer;
        this.linker = linker;
        this.views = views;
        this.skipThresholdColumns = skipThresholdColumns;
        this.skipAvgColumns = skipAvgColumns;
        this.valueMatches = valueMatches;
    }

    /** The authors' {@code _is_need_prune}: link when the tables average more than the bound or the total exceeds its own. */
    static boolean needsLinking(DatabaseSchema schema, int maxTotal, int maxAverage) {
        int tables = Math.max(1, schema.tables().size());
        return schema.columnCount() > maxTotal || schema.columnCount() / tables > maxAverage;
    }

    /**
     * @param door   the request's door (its database, its tenant): values are looked up through it, so only values of
     *               tables the tenant may see are found
     * @param fields the shared prompt fields of the request (db_id, question, evidence, history; schema is set here)
     */
    public CompletableFuture<LinkedSchema> link(DataDoor door, DatabaseSchema schema, PromptFields fields,
                                                StageTrace trace) {
        String question = fields.question() + " " + Objects.toString(fields.get("evidence"), "");
        // Only values of the tables this request may see (the door keeps its tenant's; retrieval may cut further).
        List<ValueMatch> found = door.values(question, valueMatches).stream()
                .filter(v -> schema.table(v.table()).isPresent()).toList();
        List<String> matched = ValueText.of(found);
        String fullText = views.full(schema);
        if (!needsLinking(schema, skipThresholdColumns, skipAvgColumns)) {
            trace.note = "linking skipped: " + schema.columnCount() + " columns <= " + skipThresholdColumns
                    + ", average per table <= " + skipAvgColumns;
            return CompletableFuture.completedFuture(new LinkedSchema(fullText, List.of(), matched, true));
        }
        return summarizer.summarize(schema, fullText, EngineDialectText.engineOf(fields), trace).thenCompose(summaries -> {
            PromptFields vars = fields
                    .with("schema", fullText)
                    .with("values", ValueText.forPrompt(matched))
                    .with("summaries", summaries.entrySet().stream()
                            .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("\n")));
            return linker.link(vars, schema, trace);
        }).thenCompose(links -> StageSql.offload(trace, () -> {
            // the soft schema's sample rows are SQL: on the stage's work pool, not on the reply's thread
            List<ColumnRef> linked = rank(links, found);
            trace.note = links.size() + " entities, " + linked.size() + " linked columns";
            return CompletableFuture.completedFuture(new LinkedSchema(views.soft(schema, linked), linked, matched, false));
        }));
    }

    /** Columns by rank across entities (every entity's best column first), then the columns holding matched values. */
    static List<ColumnRef> rank(List<EntityLink> links, List<ValueMatch> found) {
        Set<ColumnRef> ranked = new LinkedHashSet<>();
        int depth = links.stream().mapToInt(l -> l.columns().size()).max().orElse(0);
        for (int position = 0; position < depth; position++) {
            for (EntityLink link : links) {
                if (position < link.columns().size()) {
                    ranked.add(link.columns().get(position));
                }
            }
        }
        found.forEach(v -> ranked.add(v.columnRef()));
        return new ArrayList<>(ranked);
    }
}
