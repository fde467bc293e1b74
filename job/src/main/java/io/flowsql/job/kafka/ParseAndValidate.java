package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionMapper;
import io.flowsql.events.QuestionParse;
import io.flowsql.events.RejectKind;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;

/**
 * Turns every record read into exactly one valid question (main output) or one dead letter (side
 * output {@link #DEAD_LETTERS}) with its reason and topic/partition/offset: nothing is dropped silently.
 */
public final class ParseAndValidate extends ProcessFunction<RawRecord, RequestContext> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetterEvent> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    private final KnownDatabases databases;
    private final Clock clock;

    public ParseAndValidate(KnownDatabases databases) {
        this(databases, Clock.systemUTC());
    }

    ParseAndValidate(KnownDatabases databases, Clock clock) {
        this.databases = databases;
        this.clock = clock;
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<RequestContext> out) {
        QuestionParse parsed = check(EventJson.parseQuestion(record.value));
        Instant now = clock.instant();
        if (parsed.isValid()) {
            out.collect(QuestionMapper.toContext(parsed.question(), record.origin(), now.toEpochMilli()));
        } else {
            ctx.output(DEAD_LETTERS, deadLetter(record, parsed.reason(), now));
        }
    }

    private QuestionParse check(QuestionParse parsed) {
        if (parsed.isValid() && !databases.contains(parsed.question().dbId)) {
            return QuestionParse.rejected(RejectKind.UNKNOWN_DATABASE, "no database '" + parsed.question().dbId + "'");
        }
        return parsed;
    }

    static DeadLetterEvent deadLetter(RawRecord record, String reason, Instant now) {
        String raw = record.value == null ? null : new String(record.value, StandardCharsets.UTF_8);
        return new DeadLetterEvent(raw, record.topic, record.partition, record.offset, reason, now.toString());
    }
}
