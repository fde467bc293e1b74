package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeRecords;
import io.flowsql.sql.catalog.DatabaseLocator;
import java.time.Instant;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Turns every knowledge record into one entry (main output) or one dead letter (side output {@link #DEAD_LETTERS},
 * as refused feedback): size, strict JSON, the knowledge schema, a database the job knows. Never throws.
 */
public final class ParseKnowledge extends ProcessFunction<RawRecord, KnowledgeEntry> {
    private static final long serialVersionUID = 1L;
    public static final OutputTag<DeadLetterEvent> DEAD_LETTERS = new OutputTag<>("knowledge-record-dead-letters") {};

    private final DatabaseLocator databases;
    private final int maxRecordBytes;
    private final int excerptBytes;
    private transient KnowledgeRecords records;

    public ParseKnowledge(DatabaseLocator databases, int maxRecordBytes, int excerptBytes) {
        this.databases = databases;
        this.maxRecordBytes = maxRecordBytes;
        this.excerptBytes = excerptBytes;
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<KnowledgeEntry> out) {
        if (records == null) {
            records = new KnowledgeRecords(db -> databases.sqliteFile(db).isPresent(), maxRecordBytes);
        }
        KnowledgeRecords.Read read;
        try {
            read = records.read(record.value, record.timestamp);
        } catch (RuntimeException | StackOverflowError e) {
            read = new KnowledgeRecords.Read(null, "internal: the record could not be read: " + e);
        }
        if (read.isValid()) {
            out.collect(read.entry());
        } else {
            ctx.output(DEAD_LETTERS, ParseAndValidate.deadLetter(record, read.refusal(), Instant.now(), excerptBytes));
        }
    }
}
