package io.flowsql.journal;

import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.TokenUsage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One journaled model reply: whose it is (journal id = request id unless the request reuses another's
 * journal, and stage), the choices, their token usage and the model that answered, and when it was written.
 */
public record JournalEntry(String journalId, String stage, List<String> choices, List<String> finishReasons,
                           int promptTokens, int completionTokens, boolean estimated, String model, boolean simulated,
                           long writtenAtMillis) {

    public JournalEntry {
        choices = List.copyOf(choices);
        finishReasons = finishReasons == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(finishReasons));
    }

    public static JournalEntry of(JournalScope scope, ChatResponse response, long nowMillis) {
        TokenUsage usage = response.usage();
        return new JournalEntry(scope.journalId(), scope.stage(), response.choices(), response.finishReasons(),
                usage.promptTokens(), usage.completionTokens(), usage.estimated(), response.model(),
                response.simulated(), nowMillis);
    }

    /**
     * The reply as the stage received it from the model (choices and their finish reasons, so a reply cut at
     * max_tokens is handled the same way again): no latency, no retries, marked cached.
     */
    public ChatResponse toResponse() {
        return new ChatResponse(choices, new TokenUsage(promptTokens, completionTokens, estimated), model, simulated,
                0, 0, true, finishReasons);
    }

    /** The tokens a re-use of this entry saves. */
    public int tokens() {
        return promptTokens + completionTokens;
    }
}
