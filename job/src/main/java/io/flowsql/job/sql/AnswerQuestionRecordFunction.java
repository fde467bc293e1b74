package io.flowsql.job.sql;

import io.flowsql.job.kafka.RawRecord;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.types.Row;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * {@code FLOWSQL_ANSWER(record_key, record_value, topic, partition, offset)}: a question record of the questions topic,
 * read as raw bytes, checked exactly as the DataStream job checks it (size, strict UTF-8 JSON, the questions schema,
 * stages, the key equal to the dialogue id, the database) and answered; a record the job would dead-letter is a
 * {@code rejected} row whose {@code dead_letter} column holds that dead letter, so a SQL job that reads raw records
 * loses none and never fails on one.
 */
public class AnswerQuestionRecordFunction extends AnsweringTableFunction {
    private static final long serialVersionUID = 1L;

    public void eval(CompletableFuture<Collection<Row>> result, @DataTypeHint("BYTES") byte[] key,
                     @DataTypeHint("BYTES") byte[] value, String topic, Integer partition, Long offset) {
        RawRecord record = new RawRecord(key, value, topic, partition == null ? -1 : partition,
                offset == null ? -1 : offset, System.currentTimeMillis());
        emit(answerer().answer(record), result);
    }
}
