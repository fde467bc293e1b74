package io.flowsql.job.sql;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.job.EngineWiring;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobDatabases;
import io.flowsql.job.kafka.ParseAndValidate;
import io.flowsql.job.JobOptions;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.functions.AsyncTableFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.types.Row;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What FlowSQL's Flink SQL functions share: in {@code open()} a lease on the TaskManager's engine for the job's options
 * (read from the job parameters, {@link FunctionConfig}) — the same shared engine, pools and limits the DataStream job's
 * operators use — and one output row per question, emitted when its answer is ready (nothing waits on the task thread).
 */
@FunctionHint(output = @DataTypeHint("ROW<request_id STRING, dialogue_id STRING, status STRING, question_type STRING, "
        + "sql_query STRING, reply STRING, error_kind STRING, error STRING, trace STRING, answer STRING, dead_letter STRING>"))
public abstract class AnsweringTableFunction extends AsyncTableFunction<Row> {
    private static final long serialVersionUID = 1L;

    private transient EngineLease lease;
    private transient QuestionAnswerer answerer;

    @Override
    public void open(FunctionContext context) {
        JobConfig config = FunctionConfig.from(key -> context.getJobParameter(key, null));
        EngineConfig engine = EngineWiring.engineConfig(config);
        lease = EngineFactory.shared(engine);
        ParseAndValidate validator = new ParseAndValidate(engine.databases())
                .withDeclaredDatabases(JobDatabases.declaredIds(config));
        answerer = new QuestionAnswerer(lease.runtime(), validator, engine.defaultStrategy(),
                config.get(JobOptions.SQL_FUNCTION_TIMEOUT).toMillis());
    }

    protected final QuestionAnswerer answerer() {
        return answerer;
    }

    protected static void emit(CompletableFuture<SqlAnswer> answer, CompletableFuture<Collection<Row>> result) {
        answer.thenAccept(a -> result.complete(List.of(row(a))));
    }

    static Row row(SqlAnswer a) {
        return Row.of(a.requestId(), a.dialogueId(), a.status(), a.questionType(), a.sql(), a.reply(), a.errorKind(),
                a.error(), a.trace(), a.answer(), a.deadLetter());
    }

    @Override
    public void close() {
        if (lease != null) {
            lease.close();
            lease = null;
        }
    }
}
