package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.FeedbackParse;
import io.flowsql.events.EventJson;
import io.flowsql.events.RejectKind;
import io.flowsql.sql.catalog.DatabaseLocator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Instant;

/**
 * Turns every feedback record into one feedback event (main output) or one dead letter (side output
 * {@link #DEAD_LETTERS}, the same format and topic as refused questions): size, strict JSON, the feedback schema,
 * and a pair's database. Never throws: a record it cannot handle is an {@code internal} dead letter.
 */
public final class ParseFeedback extends ProcessFunction<RawRecord, FeedbackEvent> {
    private static final long serialVersionUID = 1L;
    public static final OutputTag<DeadLetterEvent> DEAD_LETTERS = new OutputTag<>("feedback-record-dead-letters") {};

    private final DatabaseLocator databases;
    private final int maxRecordBytes;
    private final int excerptBytes;

    public ParseFeedback(DatabaseLocator databases, int maxRecordBytes, int excerptBytes) {
        this.databases = databases;
        this.maxRecordBytes = maxRecordBytes;
        this.excerptBytes = excerptBytes;
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<FeedbackEvent> out) {
        FeedbackParse parsed;
        try {
            parsed = check(record);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            parsed = FeedbackParse.rejected(RejectKind.INTERNAL, "the record could not be read: " + e);
        }
        if (parsed.isValid()) {
            FeedbackEvent f = parsed.feedback();
            f.topic = record.topic;
            f.partition = record.partition;
            f.offset = record.offset;
            f.timestampMillis = record.timestamp;
            out.collect(f);
        } else {
            ctx.output(DEAD_LETTERS, ParseAndValidate.deadLetter(record, parsed.reason(), Instant.now(), excerptBytes));
        }
    }

    private FeedbackParse check(RawRecord record) {
        if (record.value != null && record.value.length > maxRecordBytes) {
            return FeedbackParse.rejected(RejectKind.TOO_LARGE, "record of " + record.value.length
                    + " bytes; a feedback record may hold at most " + maxRecordBytes + " bytes");
        }
        FeedbackParse parsed = EventJson.parseFeedback(record.value);
        if (parsed.isValid() && parsed.feedback().dbId != null && databases.sqliteFile(parsed.feedback().dbId).isEmpty()) {
            return FeedbackParse.rejected(RejectKind.UNKNOWN_DATABASE, "no database '" + parsed.feedback().dbId + "'");
        }
        return parsed;
    }
}
