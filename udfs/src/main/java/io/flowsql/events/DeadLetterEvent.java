package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** A record the job refused, with where it came from and why (schemas/dead-letters.schema.json), so nothing read is lost silently. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeadLetterEvent {
    /** The record's value as text (UTF-8, malformed bytes replaced); null when the record had no value. */
    public String raw;
    public String topic;
    public int partition;
    public long offset;
    public String reason;
    /** ISO-8601 instant the job refused it. */
    public String receivedAt;

    public DeadLetterEvent() {}

    public DeadLetterEvent(String raw, String topic, int partition, long offset, String reason, String receivedAt) {
        this.raw = raw;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.reason = reason;
        this.receivedAt = receivedAt;
    }
}
