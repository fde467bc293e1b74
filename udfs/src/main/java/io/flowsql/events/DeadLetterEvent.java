package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A record the job refused, with where it came from and why (schemas/dead-letters.schema.json), so nothing read is
 * lost silently. It always fits the topic: the record itself is kept as a bounded excerpt with its size and SHA-256
 * ({@link DeadLetters}), never whole.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeadLetterEvent {
    /** The start of the record's value as text (UTF-8, malformed bytes replaced), at most a few KiB once JSON-escaped; null when the record had no value. */
    public String raw;
    /** True when {@link #raw} is only the start of the value. */
    public Boolean rawTruncated;
    /** Size of the record's value in bytes; null when it had none. */
    public Long rawBytes;
    /** SHA-256 of the record's value (hex), to find or compare the original; null when it had none. */
    public String rawSha256;
    /** The record key as text (bounded like {@link #raw}); null when it had none. */
    public String key;
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
