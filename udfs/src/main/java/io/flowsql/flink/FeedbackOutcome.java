package io.flowsql.flink;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.DeadLetters;
import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.feedback.LiveEntry;
import java.time.Instant;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The end of the feedback's checks: refused feedback becomes a dead letter (same topic and format as a refused
 * question; the value is the feedback as read), accepted feedback the live-library entry it teaches. A verdict
 * that teaches nothing ({@code wrong} without corrected SQL) yields neither.
 */
public class FeedbackOutcome extends ProcessFunction<FeedbackEvent, LiveEntry> {
    private static final long serialVersionUID = 1L;
    public static final OutputTag<DeadLetterEvent> DEAD_LETTERS = new OutputTag<>("feedback-dead-letters") {};

    private final int excerptBytes;

    public FeedbackOutcome(int excerptBytes) {
        this.excerptBytes = excerptBytes;
    }

    @Override
    public void processElement(FeedbackEvent f, Context ctx, Collector<LiveEntry> out) {
        if (f.refusal != null) {
            ctx.output(DEAD_LETTERS, DeadLetters.of(f.keyBytes(), EventJson.toBytes(f), f.topic, f.partition, f.offset,
                    f.refusal, Instant.now().toString(), excerptBytes));
            return;
        }
        LiveEntry e = new LiveEntry();
        e.feedbackId = f.feedbackId;
        e.timestampMillis = f.timestampMillis;
        switch (f.kind) {
            case FeedbackEvent.PAIR -> e.kind = LiveEntry.EXAMPLE;
            case FeedbackEvent.CORRECTION -> e.kind = LiveEntry.CORRECTION;
            case FeedbackEvent.RETRACTION -> e.kind = LiveEntry.RETRACTION;
            default -> {
                return;
            }
        }
        e.dbId = f.dbId;
        e.tenant = f.tenant;
        e.question = f.question;
        e.evidence = f.evidence;
        e.sql = f.sql;
        e.wrongSql = f.wrongSql;
        e.retracts = f.retracts;
        out.collect(e);
    }
}
