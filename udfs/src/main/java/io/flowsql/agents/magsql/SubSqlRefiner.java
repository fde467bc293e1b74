package io.flowsql.agents.magsql;

import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MAG-SQL §3.4 Sub-SQL Refiner: executes a sub-SQL and, when {@link ResultProblem} finds something wrong, asks the
 * model to correct it, for at most {@link MagSqlRules#refineRounds()} rounds (stopping early when the model repeats
 * the query: the same query would fail the same way). As the authors' code does, a "no such column" error shows the
 * full schema instead of the linked one (and the later steps keep it: {@link Refined#fellBack()}), and an empty result
 * of a nested query is refined with the nested-query prompt ({@code magsql/refine_nested}), which names the usual
 * cause (a MIN/MAX subquery whose value is not in the joined rows) and shows the values found in the database.
 */
public final class SubSqlRefiner {
    private static final Pattern SELECT = Pattern.compile("(?i)\\bSELECT\\b");
    private static final String FALLBACK_HINT = " (the full schema is shown now: check which table holds each column"
            + " and quote names that need it)";

    private final AgentCall call;
    private final StageSql database;
    private final PromptPair prompt = PromptPair.load("magsql/refine");
    private final PromptPair nested = PromptPair.load("magsql/refine_nested");

    public SubSqlRefiner(AgentCall call, StageSql database) {
        this.call = call;
        this.database = database;
    }

    /**
     * What a refinement works with: the prompt fields (the schema the step saw), the full schema text for the
     * fallback, the database values found for the question (for the nested-query prompt), the request's rules and its
     * tenant (whose access policy the sub-SQL runs under: {@link StageSql}; null = none, which a policy refuses).
     */
    public record Frame(PromptFields fields, String fullSchema, String values, MagSqlRules rules, String tenant,
                        boolean fellBack) {
        public Frame(PromptFields fields, String fullSchema, String values, MagSqlRules rules, String tenant) {
            this(fields, fullSchema, values, rules, tenant, false);
        }

        Frame withFullSchema() {
            return new Frame(fields.with("schema", fullSchema), fullSchema, values, rules, tenant, true);
        }
    }

    /** The outcome of refining one sub-SQL; {@code frame} is the one later steps use (full schema after a fallback). */
    public record Refined(String sql, int rounds, Optional<String> remainingProblem, Frame frame) {
        /** Whether this or an earlier step fell back to the full schema. */
        public boolean fellBack() {
            return frame.fellBack();
        }
    }

    public CompletableFuture<Refined> refine(Frame frame, String subQuestion, String sql, StageTrace trace) {
        return round(frame, subQuestion, sql, 0, trace);
    }

    /** One round, on the stage's work pool: it starts with SQL, and is chained on the model's reply. */
    private CompletableFuture<Refined> round(Frame frame, String subQuestion, String sql, int done, StageTrace trace) {
        return StageSql.offload(trace, () -> roundHere(frame, subQuestion, sql, done, trace));
    }

    private CompletableFuture<Refined> roundHere(Frame frame, String subQuestion, String sql, int done, StageTrace trace) {
        String dbId = String.valueOf(frame.fields().get("db_id"));
        ExecutionResult result = database.execute(StageSql.Scope.of(dbId, frame.tenant(), trace), sql);
        Optional<ResultProblem> problem = ResultProblem.of(result, frame.rules().refineOnAnyNull(),
                database.engineOf(dbId));
        if (problem.isEmpty() || done >= frame.rules().refineRounds()) {
            return CompletableFuture.completedFuture(
                    new Refined(sql, done, problem.map(ResultProblem::text), frame));
        }
        ResultProblem p = problem.get();
        boolean fallback = p.kind() == ResultProblem.Kind.NO_SUCH_COLUMN && frame.rules().schemaFallback()
                && !frame.fellBack() && !frame.fullSchema().equals(frame.fields().get("schema"));
        Frame asked = fallback ? frame.withFullSchema() : frame;
        boolean nestedEmpty = p.kind() == ResultProblem.Kind.EMPTY && frame.rules().nestedHint() && selects(sql) > 1;
        PromptFields vars = asked.fields()
                .with("sub_question", SchemaContext.oneLine(subQuestion))
                .with("sql", SchemaContext.oneLine(sql))
                .with("problem", p.text() + (fallback ? FALLBACK_HINT : ""))
                .with("result", ResultProblem.preview(result, 3));
        ChatRequest request = nestedEmpty ? nested.request(vars.with("values", asked.values())) : prompt.request(vars);
        return call.ask(request, ModelOutput::sql, trace).thenCompose(revised -> {
            if (SqlOneLine.of(revised).equals(SqlOneLine.of(sql))) {
                return CompletableFuture.completedFuture(
                        new Refined(sql, done + 1, Optional.of(p.text()), asked));
            }
            return round(asked, subQuestion, revised, done + 1, trace);
        });
    }

    private static int selects(String sql) {
        Matcher m = SELECT.matcher(sql);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
