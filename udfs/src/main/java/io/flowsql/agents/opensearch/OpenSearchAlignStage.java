package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.agents.opensearch.align.DialectAlignment;
import io.flowsql.agents.opensearch.align.model.AgentChecks.KnownValue;
import io.flowsql.agents.opensearch.align.model.ModelAligner;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageModes;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.access.DataDoors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Aligns every candidate not yet executed before execution, in one of two modes (the stage's default, or the
 * question's {@code options.stage_modes}): {@value #MODEL} — OpenSearch-SQL's alignment by the model
 * ({@link ModelAligner}: style, function and agent checks, a model call per step whose checks fired), each distinct
 * SQL once — or {@value #RULES} — the four fixed JSqlParser rules ({@link ConsistencyAligner}), kept as an ablation.
 * Notes {@code align.<source>} = what changed the candidate, {@code align.mode} = the mode.
 */
public final class OpenSearchAlignStage implements Stage {
    public static final String MODEL = "model";
    public static final String RULES = "rules";
    public static final String MODE_NOTE = "align.mode";

    private final ConsistencyAligner rules;
    /** The dialect rule alone (a no-op on SQLite): applied first in the model mode too, as it is in the rules mode. */
    private final ConsistencyAligner dialect;
    private final ModelAligner model;
    /** The question's door shows the schema its tenant may see. */
    private final DataDoors doors;
    private final SchemaContext schemas;
    private final QuestionValues values;
    private final String defaultMode;

    /** Rules only (no model), as before the model alignment: for tests and replays of the rules. */
    public OpenSearchAlignStage(ConsistencyAligner rules, DataDoors room) {
        this(rules, null, room, null, null, RULES);
    }

    /** @param room the data (null: {@code schemas}' room), whose request's door shows the schema its tenant may see */
    public OpenSearchAlignStage(ConsistencyAligner rules, ModelAligner model, DataDoors room, SchemaContext schemas,
                                QuestionValues values, String defaultMode) {
        this.rules = rules;
        this.dialect = rules == null ? null : rules.only(Set.of(DialectAlignment.NAME));
        this.model = model;
        this.doors = room != null ? room : schemas.doors();
        this.schemas = schemas;
        this.values = values;
        this.defaultMode = defaultMode;
    }

    /** The schema the rules align against: the tables the question's tenant may see (the whole one without a context: no policy). */
    private DatabaseSchema visible(RequestContext ctx) {
        return doors.door(ctx.dbId, ctx.tenant).schema();
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        String mode = StageModes.of(ctx, trace, defaultMode);
        if (!MODEL.equals(mode) && !RULES.equals(mode)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "unknown alignment mode '" + mode + "'; modes: " + MODEL + ", " + RULES));
        }
        if (MODEL.equals(mode) && model == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no model aligner configured"));
        }
        ctx.notes.put(MODE_NOTE, mode);
        // the rules probe the database and the agent step reads value indexes: both off the calling thread
        return StageSql.offload(trace, () -> RULES.equals(mode) ? byRules(ctx, trace) : byModel(ctx, trace));
    }

    private CompletableFuture<Void> byRules(RequestContext ctx, StageTrace trace) {
        DatabaseSchema schema = visible(ctx);
        int changed = 0;
        for (Candidate candidate : pending(ctx)) {
            ConsistencyAligner.Aligned aligned = rules.align(candidate.sql, schema, StageSql.Scope.of(ctx, trace));
            if (aligned.changed()) {
                candidate.sql = aligned.sql();
                ctx.notes.put("align." + candidate.source, String.join(",", aligned.appliedRules()));
                changed++;
            }
        }
        trace.note = "aligned " + changed + " of " + ctx.candidates.size() + " (rules)";
        return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<Void> byModel(RequestContext ctx, StageTrace trace) {
        DatabaseSchema schema = visible(ctx);
        Set<String> tables = schema.tables().stream().map(TableSchema::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        String valueText = values.text(ctx);
        List<KnownValue> known = valueText.lines().map(KnownValue::parse).filter(Objects::nonNull).toList();
        PromptFields fields = schemas.promptFields(ctx).with("values", valueText);
        if (dialect != null) {
            for (Candidate candidate : pending(ctx)) {
                ConsistencyAligner.Aligned aligned = dialect.align(candidate.sql, schema, StageSql.Scope.of(ctx, trace));
                if (aligned.changed()) {
                    candidate.sql = aligned.sql();
                    ctx.notes.put("align." + candidate.source, String.join(",", aligned.appliedRules()));
                }
            }
        }
        Map<String, List<Candidate>> bySql = new LinkedHashMap<>();
        for (Candidate candidate : pending(ctx)) {
            bySql.computeIfAbsent(SqlOneLine.of(candidate.sql), k -> new ArrayList<>()).add(candidate);
        }
        List<CompletableFuture<Boolean>> work = new ArrayList<>();
        for (Map.Entry<String, List<Candidate>> same : bySql.entrySet()) {
            work.add(model.align(doors.door(ctx.dbId, ctx.tenant), fields, same.getKey(), tables, known, trace).thenApply(aligned -> {
                if (!aligned.changed()) {
                    return false;
                }
                for (Candidate c : same.getValue()) {
                    c.sql = aligned.sql();
                    ctx.notes.merge("align." + c.source, String.join(",", aligned.appliedRules()), (a, b) -> a + "," + b);
                }
                return true;
            }));
        }
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).thenRun(() -> {
            long changed = ctx.candidates.stream().filter(c -> ctx.notes.containsKey("align." + c.source)).count();
            trace.note = "aligned " + changed + " of " + ctx.candidates.size() + " (model, " + bySql.size()
                    + " distinct SQL)";
        });
    }

    private static List<Candidate> pending(RequestContext ctx) {
        return ctx.candidates.stream().filter(c -> !c.executed && c.sql != null).toList();
    }
}
