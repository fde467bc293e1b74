package io.flowsql.journal;

import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Every model call of every stage goes through here: with a scope (the stage and request it belongs to) the
 * journal is consulted first and a hit is answered from it without calling the model; a miss calls the model
 * and completes only once the reply is journaled, so nothing a stage decides moves on before it is durable; when
 * the key was journaled meanwhile (by a call of a killed task that completed late), that first reply is used.
 * A journal that cannot be written is logged and the reply used anyway (the answer matters more than the
 * saving); a call without a scope (no request id) is not journaled.
 */
public final class JournaledCalls {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledCalls.class);

    private final LlmClient llm;
    private final StageJournal journal;
    private final Executor continuation;

    /** Replies resume on the thread that completes them (tests, tools). */
    public JournaledCalls(LlmClient llm, StageJournal journal) {
        this(llm, journal, Runnable::run);
    }

    /**
     * Replies resume on {@code continuation} (the engine's callback pool): what a stage chains on a reply (parsing,
     * the next prompt) never runs on the journal's single acknowledgement thread nor on the HTTP client's threads.
     * Nothing chained here may block: SQL goes to the stage's work pool ({@code StageSql.offload}).
     */
    public JournaledCalls(LlmClient llm, StageJournal journal, Executor continuation) {
        this.llm = Objects.requireNonNull(llm, "llm");
        this.journal = Objects.requireNonNull(journal, "journal");
        this.continuation = Objects.requireNonNull(continuation, "continuation");
    }

    /** Whether the journal was consulted for a call, and what it held. */
    public enum Lookup { NOT_JOURNALED, HIT, MISS }

    /** A reply, and whether it came from the journal instead of the model. */
    public record Reply(ChatResponse response, Lookup lookup) {}

    public CompletableFuture<Reply> chat(ChatRequest request, JournalScope scope) {
        if (scope == null || !journal.enabled()) {
            return cancelsCall(llm.chat(request),
                    call -> call.thenApplyAsync(r -> new Reply(r, Lookup.NOT_JOURNALED), continuation));
        }
        String key = scope.keyFor(request);
        Optional<JournalEntry> hit = journal.find(key);
        if (hit.isPresent()) {
            return CompletableFuture.completedFuture(new Reply(hit.get().toResponse(), Lookup.HIT));
        }
        return cancelsCall(llm.chat(request), call -> call.thenComposeAsync(response -> {
            // The first reply journaled for a key is the decision: a call of a killed task may have completed and
            // been journaled while this one was on its way; then both processings go on with that one.
            Optional<JournalEntry> first = journal.find(key);
            if (first.isPresent()) {
                return CompletableFuture.completedFuture(new Reply(first.get().toResponse(), Lookup.MISS));
            }
            return journal.record(key, JournalEntry.of(scope, response, System.currentTimeMillis()))
                    .handleAsync((ignored, error) -> {
                        if (error != null) {
                            LOG.warn("stage journal: could not record {} ({}); the reply is used unjournaled", key,
                                    error.toString());
                        }
                        return new Reply(response, Lookup.MISS);
                    }, continuation);
        }, continuation));
    }

    /** The reply future made from {@code call}; cancelling it (a stage timeout) cancels the model call too. */
    private static CompletableFuture<Reply> cancelsCall(CompletableFuture<ChatResponse> call,
            java.util.function.Function<CompletableFuture<ChatResponse>, CompletableFuture<Reply>> then) {
        CompletableFuture<Reply> reply = then.apply(call);
        reply.whenComplete((ignored, error) -> {
            if (reply.isCancelled()) {
                call.cancel(false);
            }
        });
        return reply;
    }

    public StageJournal journal() {
        return journal;
    }
}
