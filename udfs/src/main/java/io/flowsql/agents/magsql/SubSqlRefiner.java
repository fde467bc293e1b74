package io.flowsql.agents.magsql;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.exec.SafeExecutor;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL §3.4 Sub-SQL Refiner: executes a sub-SQL and, on an error, an empty result or NULLs in the
 * answer, asks the model to correct it, for at most a configured number of rounds (stopping early when the
 * model keeps the query or the result looks fine).
 */
public final class SubSqlRefiner {
    private final AgentCall call;
    private final SafeExecutor executor;
    private final int rounds;
    private final PromptPair prompt = PromptPair.load("magsql/refine");

    public SubSqlRefiner(AgentCall call, SafeExecutor executor, int rounds) {
        this.call = call;
        this.executor = executor;
        this.rounds = rounds;
    }

    /** The outcome of refining one sub-SQL. */
    public record Refined(String sql, int rounds, Optional<String> remainingProblem) {}

    public CompletableFuture<Refined> refine(PromptFields fields, String subQuestion, String sql, StageTrace trace) {
        return round(fields, subQuestion, sql, 0, trace);
    }

    /** One round, on the stage's work pool: it starts with SQL, and is chained on the model's reply. */
    private CompletableFuture<Refined> round(PromptFields fields, String subQuestion, String sql, int done,
                                             StageTrace trace) {
        return StageSql.offload(trace, () -> roundHere(fields, subQuestion, sql, done, trace));
    }

    private CompletableFuture<Refined> roundHere(PromptFields fields, String subQuestion, String sql, int done,
                                                 StageTrace trace) {
        String dbId = String.valueOf(fields.get("db_id"));
        ExecutionResult result = StageSql.execute(executor, dbId, sql, trace);
        Optional<String> problem = ResultProblem.of(result);
        if (problem.isEmpty() || done >= rounds) {
            return CompletableFuture.completedFuture(new Refined(sql, done, problem));
        }
        PromptFields vars = fields
                .with("sub_question", SchemaContext.oneLine(subQuestion))
                .with("sql", SchemaContext.oneLine(sql))
                .with("problem", problem.get())
                .with("result", ResultProblem.preview(result, 3));
        ChatRequest request = prompt.request(vars);
        return call.ask(request, ModelOutput::sql, trace).thenCompose(revised -> {
            if (normalize(revised).equals(normalize(sql))) {
                return CompletableFuture.completedFuture(new Refined(sql, done + 1, problem));
            }
            return round(fields, subQuestion, revised, done + 1, trace);
        });
    }

    private static String normalize(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }
}
