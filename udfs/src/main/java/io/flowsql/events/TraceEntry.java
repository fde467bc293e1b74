package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** What one stage spent on an answer (latency, calls, tokens, retries), so costs are visible per request. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TraceEntry {
    public String stage;
    public String model;
    public long latencyMs;
    public int llmCalls;
    /** Embedding requests the stage sent (not in llm_calls); absent when none. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public int embeddingCalls;
    /** Each chat call and embedding request: start (ms after the question was received) and duration; absent when none. */
    public java.util.List<CallTiming> calls;
    public int promptTokens;
    public int cachedPromptTokens;
    public int completionTokens;
    public int retries;
    public boolean simulated;
    /** Calls answered from the stage journal instead of the model, and the tokens that saved. */
    public int journalHits;
    public int tokensSaved;
    /** Replies cut at max_tokens even after one retry with a larger budget (never silently dropped). */
    public int truncatedReplies;
    /** Why the stage's last failed LLM call failed (null when none failed). */
    public String error;
    /** How the stage's run ended: completed, settled or failed. */
    public String outcome;
    /** When a model call failed the stage: the client's kind of error (e.g. UNPARSEABLE_OUTPUT). */
    public String modelError;
    /** The feedback ids of the live examples and repairs the stage used (see docs/AGENTS.md "Learning from feedback"). */
    public java.util.List<String> feedbackUsed;
    /** The knowledge ids whose definitions this stage's prompts carried (docs/KNOWLEDGE.md); absent when none. */
    public java.util.List<String> knowledgeUsed;

    public TraceEntry() {}
}
