package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One record of the feedback topic (schemas/feedback.schema.json): a verified pair, a verdict on an answer by its
 * request id, or a retraction of an earlier feedback id. A Flink POJO, so it crosses the feedback operators.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FeedbackEvent {
    public static final String PAIR = "pair";
    public static final String VERDICT = "verdict";
    public static final String RETRACTION = "retraction";
    public static final String CORRECT = "correct";
    public static final String WRONG = "wrong";

    public String kind;
    public String feedbackId;
    public String dbId;
    public String question;
    public String sql;
    public String evidence;
    public String notes;
    public String requestId;
    /** Who sends it: its SQL runs under this tenant's access policy; null = none (refused once tenants are configured). */
    public String tenant;
    public String verdict;
    public String correctedSql;
    public String retracts;
    public String sentAt;
    /** The internal kind of a verdict resolved to "wrong, corrected": learned as an example and a repair. */
    public static final String CORRECTION = "correction";

    // --- not on the wire: set by the job as the feedback passes its operators
    /** Where the record came from, and its Kafka timestamp. */
    @JsonIgnore public String topic;
    @JsonIgnore public int partition;
    @JsonIgnore public long offset;
    @JsonIgnore public long timestampMillis;
    /** A resolved correction's wrong SQL (the answer's). */
    @JsonIgnore public String wrongSql;
    /** Why the job refused it ("kind: detail", a dead letter's reason); null while it is accepted. */
    @JsonIgnore public String refusal;

    public FeedbackEvent() {}

    /** The record's key on the wire: its feedback id (what the CLI sends, what a dead letter shows). */
    public byte[] keyBytes() {
        return feedbackId == null ? null : feedbackId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    public static FeedbackEvent pair(String feedbackId, String dbId, String question, String sql) {
        FeedbackEvent e = new FeedbackEvent();
        e.kind = PAIR;
        e.feedbackId = feedbackId;
        e.dbId = dbId;
        e.question = question;
        e.sql = sql;
        return e;
    }

    public static FeedbackEvent verdict(String feedbackId, String requestId, boolean correct, String correctedSql) {
        FeedbackEvent e = new FeedbackEvent();
        e.kind = VERDICT;
        e.feedbackId = feedbackId;
        e.requestId = requestId;
        e.verdict = correct ? CORRECT : WRONG;
        e.correctedSql = correctedSql;
        return e;
    }

    public static FeedbackEvent retraction(String feedbackId, String retracts) {
        FeedbackEvent e = new FeedbackEvent();
        e.kind = RETRACTION;
        e.feedbackId = feedbackId;
        e.retracts = retracts;
        return e;
    }
}
