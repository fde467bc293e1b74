package io.flowsql.journal;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The durable record of what the model answered for each call of each stage of each request, consulted
 * before a call is made, so that a request processed again (after a task failure, or when an evaluation
 * run resumes) re-uses the decisions already made and pays no tokens for them. Keys come from
 * {@link JournalScope#keyFor}.
 * An interface because the durable implementation lives in the job module (its Kafka journal) so this module needs
 * no store client; {@link #NONE} stands for "no journal"; tests use an in-memory one.
 */
public interface StageJournal extends AutoCloseable {

    /** A journal that remembers nothing: every call goes to the model. */
    StageJournal NONE = new StageJournal() {
        @Override
        public Optional<JournalEntry> find(String key) {
            return Optional.empty();
        }

        @Override
        public CompletableFuture<Void> record(String key, JournalEntry entry) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void release(String journalId) {}

        @Override
        public boolean enabled() {
            return false;
        }
    };

    /** The model's recorded reply for this call, if one was journaled (and not released). Never blocks on I/O. */
    Optional<JournalEntry> find(String key);

    /** Records a reply; the future completes once the entry is durable (or fails when it cannot be made so). */
    CompletableFuture<Void> record(String key, JournalEntry entry);

    /** Drops every entry of a request whose answer is committed (it will not be processed again). */
    void release(String journalId);

    /** Whether calls are journaled at all. */
    default boolean enabled() {
        return true;
    }

    /**
     * Blocks until everything written to the journal before this call is visible to {@link #find}; called when
     * an operator (re)opens, so a request restored on another TaskManager finds what was journaled before.
     */
    default void catchUp() {}

    @Override
    default void close() {}
}
