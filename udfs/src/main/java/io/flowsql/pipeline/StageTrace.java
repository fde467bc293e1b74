package io.flowsql.pipeline;

/** What one stage did for one request: latency, LLM calls (failed ones too), tokens, retries, the last call error and a short note. */
public class StageTrace {
    public String stage;
    public String model;
    public long latencyMillis;
    public int llmCalls;
    public int promptTokens;
    /** Of the prompt tokens, those the server reported as served from its prefix cache. */
    public int cachedPromptTokens;
    public int completionTokens;
    public int retries;
    public boolean simulated;
    public String note;
    /** The last failed LLM call's reason (its attempts and retries are counted above), or null. */
    public String error;

    /** The request's cancellation while its stage runs (LLM calls register with it); never serialized. */
    public transient Cancellation cancellation;

    public StageTrace() {}

    public StageTrace(String stage) {
        this.stage = stage;
    }
}
