package io.flowsql.agents.magsql;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;

/**
 * MAG-SQL §3.3 Sub-SQL Generator: a chain-of-thought first step for the first sub-question, then next
 * steps that extend the previous (correct) sub-SQL by the one condition the next sub-question adds.
 */
public final class SubSqlGenerator {
    private final AgentCall call;
    private final PromptPair first = PromptPair.load("magsql/generate_first");
    private final PromptPair next = PromptPair.load("magsql/generate_next");

    public SubSqlGenerator(AgentCall call) {
        this.call = call;
    }

    public CompletableFuture<String> first(PromptFields fields, String subQuestion, StageTrace trace) {
        PromptFields vars = fields.with("sub_question", SchemaContext.oneLine(subQuestion));
        return call.ask(first.request(vars), ModelOutput::sql, trace);
    }

    public CompletableFuture<String> next(PromptFields fields, String previousSubQuestion, String previousSql,
                                          String subQuestion, StageTrace trace) {
        PromptFields vars = fields
                .with("previous_sub_question", SchemaContext.oneLine(previousSubQuestion))
                .with("previous_sql", SchemaContext.oneLine(previousSql))
                .with("sub_question", SchemaContext.oneLine(subQuestion));
        return call.ask(next.request(vars), ModelOutput::sql, trace);
    }
}
