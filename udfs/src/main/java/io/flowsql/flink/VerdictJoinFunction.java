package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.RejectKind;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Resolves a verdict on an answer to what it teaches, by the answer's request id: the answers read back are
 * remembered (database, question, SQL) for {@code feedback.verdict-window}; a {@code correct} verdict becomes a
 * verified pair of the answer's question and SQL, a {@code wrong} one with corrected SQL a correction (a pair with
 * the corrected SQL and a repair from the answer's SQL). A verdict on an answer not (or no longer) known, or without
 * SQL, is refused ({@code unknown_request}); {@code wrong} without a correction teaches nothing and passes as it is.
 * What a verdict teaches belongs to the tenant the answer was given to (the answer's {@code tenant}), never to the
 * tenant the verdict names: a verdict whose tenant is not the answer's is refused as on an unknown answer (so a tenant
 * can neither correct another tenant's answer into its own knowledge nor learn that the request id exists).
 * Pairs and retractions pass through untouched (keyed by their feedback id).
 */
public class VerdictJoinFunction extends KeyedCoProcessFunction<String, FeedbackEvent, AnswerEvent, FeedbackEvent> {
    private static final long serialVersionUID = 1L;

    private final Duration window;
    private transient ValueState<AnswerEvent> answer;

    public VerdictJoinFunction(Duration window) {
        this.window = window;
    }

    /** Verdicts by their request id, other feedback by its own id (two key spaces that never meet). */
    public static KeySelector<FeedbackEvent, String> feedbackKey() {
        return f -> FeedbackEvent.VERDICT.equals(f.kind) ? "request:" + f.requestId : "feedback:" + f.feedbackId;
    }

    public static KeySelector<AnswerEvent, String> answerKey() {
        return a -> "request:" + a.requestId;
    }

    @Override
    public void open(OpenContext openContext) {
        ValueStateDescriptor<AnswerEvent> descriptor = new ValueStateDescriptor<>("answer", TypeInformation.of(AnswerEvent.class));
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(window).updateTtlOnCreateAndWrite().neverReturnExpired().build());
        answer = getRuntimeContext().getState(descriptor);
    }

    @Override
    public void processElement1(FeedbackEvent feedback, Context ctx, Collector<FeedbackEvent> out) throws Exception {
        if (FeedbackEvent.VERDICT.equals(feedback.kind)) {
            resolve(feedback, answer.value());
        }
        out.collect(feedback);
    }

    @Override
    public void processElement2(AnswerEvent read, Context ctx, Collector<FeedbackEvent> out) throws Exception {
        if (read.sql != null && read.dbId != null && read.question != null) {
            AnswerEvent kept = new AnswerEvent();
            kept.requestId = read.requestId;
            kept.dbId = read.dbId;
            kept.question = read.question;
            kept.sql = read.sql;
            kept.tenant = read.tenant;
            answer.update(kept);
        }
    }

    /** Turns a verdict into the pair or correction it teaches (in place), or marks it refused. */
    static void resolve(FeedbackEvent verdict, AnswerEvent answered) {
        // another tenant's answer is refused exactly as an unknown one: the refusal tells nothing about it
        if (answered == null || !Objects.equals(verdict.tenant, answered.tenant)) {
            verdict.refusal = RejectKind.UNKNOWN_REQUEST.wireName() + ": no answer with SQL to request_id '" + verdict.requestId
                    + "' was seen within feedback.verdict-window";
            return;
        }
        verdict.tenant = answered.tenant;
        verdict.dbId = answered.dbId;
        verdict.question = answered.question;
        if (FeedbackEvent.CORRECT.equals(verdict.verdict)) {
            verdict.kind = FeedbackEvent.PAIR;
            verdict.sql = answered.sql;
        } else if (verdict.correctedSql != null) {
            verdict.kind = FeedbackEvent.CORRECTION;
            verdict.sql = verdict.correctedSql;
            verdict.wrongSql = answered.sql;
        }
    }
}
