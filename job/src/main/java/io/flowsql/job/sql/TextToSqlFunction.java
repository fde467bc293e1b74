package io.flowsql.job.sql;

import org.apache.flink.types.Row;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * {@code TEXT_TO_SQL(question, db_id [, options])}: answers one question with the job's preset and returns one row —
 * status, SQL, question type, reply, error kind and error, the trace and the whole answer as JSON. {@code options} is a
 * JSON object holding any other field of a question event (request_id, dialogue_id, evidence, options, history).
 * Never fails the job: a question the job would refuse is a {@code rejected} row with its dead letter, a failure or a
 * timeout a {@code failed} row.
 *
 * <pre>
 * CREATE FUNCTION TEXT_TO_SQL AS 'io.flowsql.job.sql.TextToSqlFunction';
 * SELECT t.status, t.sql_query FROM questions AS q, LATERAL TABLE(TEXT_TO_SQL(q.question, q.db_id)) AS t;
 * </pre>
 */
public class TextToSqlFunction extends AnsweringTableFunction {
    private static final long serialVersionUID = 1L;

    public void eval(CompletableFuture<Collection<Row>> result, String question, String dbId) {
        eval(result, question, dbId, null);
    }

    public void eval(CompletableFuture<Collection<Row>> result, String question, String dbId, String options) {
        emit(answerer().answer(question, dbId, options), result);
    }
}
