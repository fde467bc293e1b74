package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * When one model call of a stage started, in ms after the question was received, and how long the stage waited for it:
 * calls that overlap ran side by side, so a question's wait on the model is their critical path, not their sum.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CallTiming {
    public long startMs;
    public long durationMs;
    /** True for an embedding request (not a chat call); absent otherwise. */
    public Boolean embedding;

    public CallTiming() {}

    public CallTiming(long startMs, long durationMs, boolean embedding) {
        this.startMs = startMs;
        this.durationMs = durationMs;
        this.embedding = embedding ? Boolean.TRUE : null;
    }

    public boolean isEmbedding() {
        return Boolean.TRUE.equals(embedding);
    }
}
