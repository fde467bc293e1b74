package io.flowsql.pipeline;

import io.flowsql.journal.JournalScope;
import io.flowsql.llm.LlmErrorKind;

/**
 * What one stage did for one request: its outcome and, when it failed the request, the kind of failure (typed);
 * latency, LLM calls (failed ones too), tokens, retries, the last call error, the calls the stage journal answered
 * instead of the model (and the tokens that saved), and a short note.
 */
public class StageTrace {
    public String stage;
    public String model;
    public long latencyMillis;
    public int llmCalls;
    /** Each of those calls' start (epoch ms) and duration ({@link CallSpans}); null when none was timed. */
    public long[] callSpans;
    /** Embedding requests sent to the model: counted here, apart from {@link #llmCalls} (they are no chat call). */
    public int embeddingCalls;
    /** Each embedding request's start and duration ({@link CallSpans}); null when none. */
    public long[] embeddingSpans;
    public int promptTokens;
    /** Of the prompt tokens, those the server reported as served from its prefix cache. */
    public int cachedPromptTokens;
    public int completionTokens;
    public int retries;
    public boolean simulated;
    /** Calls answered from the stage journal (not sent to the model, not in llmCalls or the token counts). */
    public int journalHits;
    /** Calls the journal was asked about and did not hold (sent to the model and journaled). */
    public int journalMisses;
    /** Prompt + completion tokens of the journal hits: what asking the model again would have cost. */
    public int tokensSaved;
    /** Replies cut at max_tokens (finish_reason length) even after one retry with a larger budget. */
    public int truncatedReplies;
    public String note;
    /** The last failed LLM call's reason (its attempts and retries are counted above), or null. */
    public String error;
    /** How the stage's run ended; null while it runs. */
    public StageOutcome outcome;
    /** When the stage failed the request: why, as a type. */
    public FailureKind failure;
    /** When a model call failed the stage: the client's kind of error. */
    public LlmErrorKind modelError;
    /** The live feedback the stage used (few-shot examples, repairs), as comma-separated feedback ids; null when none. */
    public String feedbackUsed;
    /**
     * The knowledge entries whose definition this stage's prompts carried, as comma-separated knowledge ids; null when
     * none. Not part of the record: when the stage ends it is kept in the request's notes
     * ({@link KnowledgeInPrompts#keep}), which the state's wire format already carries.
     */
    public transient String knowledgeUsed;

    /** The request's knowledge entries (id → evidence line) the stage's calls are matched against; never serialized. */
    public transient java.util.Map<String, String> knowledgeOffered;

    /** The request and stage this trace's calls are journaled under; not part of the record (transient). */
    private transient JournalScope journalScope;
    /** The request's cancellation while its stage runs (LLM calls register with it); never serialized. */
    public transient Cancellation cancellation;
    /**
     * The pool the stage was started on (the engine's work pool), where what it does after a model reply that blocks
     * (SQL, value probes, file writes) runs: see {@link StageSql#offload}. Null when the stage runs where it is called
     * (the plain pipeline, tests). Never serialized.
     */
    public transient java.util.concurrent.Executor work;

    public StageTrace() {}

    /** One chat call (answered or failed) sent at {@code startMillis}; the caller holds this trace's lock. */
    public void countCall(long startMillis, long durationMillis) {
        llmCalls++;
        callSpans = CallSpans.append(callSpans, startMillis, durationMillis);
    }

    /** One embedding request sent at {@code startMillis}; the caller holds this trace's lock. */
    public void countEmbedding(long startMillis, long durationMillis) {
        embeddingCalls++;
        embeddingSpans = CallSpans.append(embeddingSpans, startMillis, durationMillis);
    }

    public StageTrace(String stage) {
        this.stage = stage;
    }

    public JournalScope journalScope() {
        return journalScope;
    }

    public void journalUnder(JournalScope scope) {
        this.journalScope = scope;
    }
}
