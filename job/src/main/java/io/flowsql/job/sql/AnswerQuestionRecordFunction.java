package io.flowsql.job.sql;

import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSources;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.kafka.RecentAnswers;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.types.Row;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * {@code FLOWSQL_ANSWER(record_key, record_value, topic, partition, offset)}: a question record of the questions topic,
 * read as raw bytes, checked exactly as the DataStream job checks it (size, strict UTF-8 JSON, the questions schema,
 * stages, the key equal to the dialogue id, the database) and answered; a record the job would dead-letter is a
 * {@code rejected} row whose {@code dead_letter} column holds that dead letter, so a SQL job that reads raw records
 * loses none and never fails on one. At each start it first reads the last {@code requests.recheck-answers} answers of
 * each answers partition ({@link RecentAnswers}, as the DataStream job's request-id check does at a start without
 * state): a question among them, read again because an earlier run stopped after its answers' commit but before its
 * offsets', becomes a {@code duplicate_request_id} dead letter instead of a second, paid answer.
 */
public class AnswerQuestionRecordFunction extends AnsweringTableFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public void open(FunctionContext context) {
        super.open(context);
        JobConfig config = FunctionConfig.from(key -> context.getJobParameter(key, null));
        answerer().answeredBefore(new RecentAnswers(config.kafkaClients(), config.get(JobOptions.ANSWERS_TOPIC),
                config.get(JobOptions.REQUEST_RECHECK_ANSWERS), JobSources.RECENT_ANSWERS_WITHIN).load(dialogue -> true));
    }

    public void eval(CompletableFuture<Collection<Row>> result, @DataTypeHint("BYTES") byte[] key,
                     @DataTypeHint("BYTES") byte[] value, String topic, Integer partition, Long offset) {
        RawRecord record = new RawRecord(key, value, topic, partition == null ? -1 : partition,
                offset == null ? -1 : offset, System.currentTimeMillis());
        emit(answerer().answer(record), result);
    }
}
